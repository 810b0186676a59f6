/* The quiz: a native form. Without JavaScript every question shows its answer in <details>.
 * With it, "Check my answers" marks each choice, explains why (polite live regions), reveals the
 * explanation, and gives a score; "Try again" resets everything. */
(function () {
  'use strict';
  function init() {
    var form = document.getElementById('quiz');
    if (!form) return;
    var submit = document.getElementById('quiz-submit');
    var retry = document.getElementById('quiz-retry');
    var result = document.getElementById('quiz-result');
    var questions = Array.prototype.slice.call(form.querySelectorAll('.question'));
    form.classList.add('is-enhanced');
    submit.hidden = false;

    function details(q) { return q.querySelector('details.answer'); }
    function reset() {
      form.reset();
      questions.forEach(function (q) {
        q.classList.remove('is-right', 'is-wrong');
        q.removeAttribute('aria-invalid');
        q.querySelector('.feedback').textContent = '';
        Array.prototype.forEach.call(q.querySelectorAll('.option'), function (o) { o.classList.remove('is-chosen', 'is-answer'); });
        Array.prototype.forEach.call(q.querySelectorAll('input'), function (i) { i.disabled = false; });
        var d = details(q); d.open = false; d.hidden = true;
      });
      result.textContent = '';
      retry.hidden = true; submit.hidden = false;
    }
    reset();

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var open = questions.filter(function (q) { return !q.querySelector('input:checked'); });
      if (open.length) {
        result.textContent = form.dataset.unanswered.replace('{list}', open.map(function (q) { return 'question ' + q.dataset.question; }).join(', '));
        open.forEach(function (q) { q.setAttribute('aria-invalid', 'true'); });
        open[0].querySelector('input').focus();
        return;
      }
      var right = 0;
      questions.forEach(function (q) {
        q.removeAttribute('aria-invalid');
        var chosen = q.querySelector('input:checked');
        var label = chosen.closest('.option');
        var ok = label.dataset.correct === 'true';
        if (ok) right++;
        q.classList.add(ok ? 'is-right' : 'is-wrong');
        label.classList.add('is-chosen');
        q.querySelector('.option[data-correct="true"]').classList.add('is-answer');
        q.querySelector('.feedback').textContent = (ok ? '\u2713 ' : '\u2717 ') + chosen.dataset.feedback;
        Array.prototype.forEach.call(q.querySelectorAll('input'), function (i) { i.disabled = true; });
        var d = details(q); d.hidden = false;
      });
      result.textContent = form.dataset.score.replace('{right}', String(right)).replace('{total}', String(questions.length));
      submit.hidden = true; retry.hidden = false;
      retry.focus();
    });
    retry.addEventListener('click', function () {
      reset();
      var first = form.querySelector('input');
      if (first) first.focus();
    });
  }
  document.addEventListener('DOMContentLoaded', init);
})();
