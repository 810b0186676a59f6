/* Theme: follows prefers-color-scheme until the reader picks one with the toggle (kept in
 * localStorage when allowed). ?theme=dark|light in the URL wins (used by embeds); the embed's
 * toggle (data-opt-in) shows only with ?theme-toggle=1. Runs in <head>
 * (not deferred) so the page never flashes the wrong theme. Exposes window.AttentionTheme. */
(function () {
  'use strict';
  var KEY = 'attention-score:theme';
  var root = document.documentElement;
  var listeners = [];

  function stored() { try { return window.localStorage.getItem(KEY); } catch (e) { return null; } }
  function save(v) { try { window.localStorage.setItem(KEY, v); } catch (e) { /* storage blocked: fine */ } }
  function param(name) {
    try { return new URLSearchParams(window.location.search).get(name || 'theme'); } catch (e) { return null; }
  }
  var media = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;

  var initial = param();
  if (initial !== 'light' && initial !== 'dark') initial = stored();
  if (initial === 'light' || initial === 'dark') root.setAttribute('data-theme', initial);

  function isDark() {
    var a = root.getAttribute('data-theme');
    if (a === 'dark' || a === 'light') return a === 'dark';
    return !!(media && media.matches);
  }
  function notify() {
    var dark = isDark();
    var b = document.getElementById('theme-toggle');
    if (b) b.setAttribute('aria-pressed', dark ? 'true' : 'false');
    listeners.forEach(function (fn) { try { fn(dark); } catch (e) { /* a listener's bug must not stop others */ } });
  }
  function set(dark) {
    root.setAttribute('data-theme', dark ? 'dark' : 'light');
    save(dark ? 'dark' : 'light');
    notify();
  }
  if (media && media.addEventListener) media.addEventListener('change', notify);

  document.addEventListener('DOMContentLoaded', function () {
    var b = document.getElementById('theme-toggle');
    if (!b) return;
    // the embed shows its toggle only when the host asks for it (?theme-toggle=1)
    if (b.hasAttribute('data-opt-in') && param('theme-toggle') !== '1') return;
    b.hidden = false;
    b.addEventListener('click', function () { set(!isDark()); });
    notify();
  });

  window.AttentionTheme = {
    isDark: isDark,
    set: set,
    onChange: function (fn) { listeners.push(fn); }
  };
})();
