// model_json.h - the trained model's reports as attn::Json values, for the trainer's summary and
// the CLI's --json (formats in docs/contract.md).
#pragma once

#include "json_value.h"

#include "model.h"

namespace attn {

// {"layer", "head", "previous_token", "first_token", "self", "induction", "ablation_loss_delta",
//  "label"}
attn::Json head_report_json(const HeadReport& h);
// {"vocab", "context", "d_model", "heads", "layers", "d_ff"}
attn::Json model_config_json(const ModelConfig& c);

}  // namespace attn
