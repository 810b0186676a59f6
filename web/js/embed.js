/* embed.html only: tells the parent page how tall the content is, so an iframe can fit it.
 * Message: {type: 'attention-score:height', height: <CSS pixels>} on load and on every resize. */
(function () {
  'use strict';
  function post() {
    if (window.parent === window) return;
    var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
    try { window.parent.postMessage({ type: 'attention-score:height', height: h }, '*'); } catch (e) { /* parent gone */ }
  }
  document.addEventListener('DOMContentLoaded', function () {
    post();
    if (window.ResizeObserver) new ResizeObserver(post).observe(document.documentElement);
    else window.addEventListener('resize', post);
  });
  window.addEventListener('load', post);
})();
