// One kind of error for everything the build refuses: render.mjs prints its message, never a stack.
export class BuildError extends Error {}
export const fail = (msg) => { throw new BuildError(msg); };
