// The SCORM 1.2 adapter of a lesson's package (scripts/scorm.py): frames the lab with
// `report=ORIGIN`, reads its results (README, "Results to the course page", protocol v 1) and
// writes the mastery check's to the LMS's `API`: score, status, one interaction per question,
// session time; then LMSCommit, and LMSFinish when the page goes. External, because the page's
// CSP allows no inline script.
(function () {
  'use strict';

  var lesson = document.documentElement.getAttribute('data-lesson');
  var frame = document.getElementById('lab');
  var status = document.getElementById('lms-status');
  var started = Date.now();
  var finished = false;

  // The runtime's discovery (SCORM 1.2 RTE 3.3.6.1): this window's parents, at most 7 levels
  // up, then the opener's. A parent of another origin throws on access: it has no API for us.
  function apiOf(win) {
    try {
      return win && win.API ? win.API : null;
    } catch (e) {
      return null;
    }
  }
  function search(win) {
    for (var tries = 0; win && tries <= 7; tries += 1) {
      var api = apiOf(win);
      if (api) return api;
      var parent = null;
      try {
        parent = win.parent;
      } catch (e) {
        return null;
      }
      if (!parent || parent === win) return null;
      win = parent;
    }
    return null;
  }
  function findApi() {
    var api = search(window);
    var opener = null;
    try {
      opener = window.opener;
    } catch (e) {
      opener = null;
    }
    return api || (opener ? search(opener) : null);
  }

  var api = findApi();
  var initialized = false;
  try {
    initialized = !!api && String(api.LMSInitialize('')) === 'true';
  } catch (e) {
    initialized = false;
  }

  function get(key) {
    return initialized ? String(api.LMSGetValue(key)) : '';
  }
  function set(key, value) {
    if (initialized) api.LMSSetValue(key, String(value));
  }
  function commit() {
    if (initialized) api.LMSCommit('');
  }

  if (initialized) {
    // Never attempted: attempted now. A lesson passed or failed before keeps its status.
    var was = get('cmi.core.lesson_status');
    if (was === '' || was === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
    commit();
    status.textContent = 'Your mastery check at the end of this lesson will go to the course\'s gradebook.';
  } else {
    status.textContent = 'No LMS was found (or it is on another origin): this lesson\'s results are not recorded.';
  }

  // The lab posts to this page's origin only; an opaque origin ("null", a sandbox) cannot be
  // named, so then the lab posts to its parent's address, which the browser gives it.
  var mine = window.location.origin;
  var named = /^https?:\/\//.test(mine);
  // Locked (`controls=` empty): the learner walks this lesson's steps and its check, and cannot
  // open another lesson or change a run, so the grade is this lesson's.
  var query = 'lesson=' + encodeURIComponent(lesson) + '&step=1&embed=1&controls=&report=' + (named ? encodeURIComponent(mine) : 'parent');
  frame.src = 'index.html?' + query;

  // A choice's index as SCORM 1.2 writes a choice response: one character, a to z.
  function response(form, value) {
    return form === 'choice' ? String.fromCharCode(97 + Math.min(25, Number(value))) : String(value);
  }

  function record(result) {
    var total = Number(result.total) || 0;
    var raw = total > 0 ? Math.round((100 * Number(result.score)) / total) : 0;
    var questions = Array.isArray(result.questions) ? result.questions : [];
    var n = parseInt(get('cmi.interactions._count'), 10) || 0;
    for (var i = 0; i < questions.length && n < 250; i += 1, n += 1) {
      var q = questions[i];
      var at = 'cmi.interactions.' + n + '.';
      set(at + 'id', lesson + '-' + result.seed + '-' + q.kind);
      set(at + 'type', q.form === 'choice' ? 'choice' : 'numeric');
      set(at + 'student_response', response(q.form, q.answer));
      set(at + 'correct_responses.0.pattern', response(q.form, q.right));
      set(at + 'result', q.correct ? 'correct' : 'wrong');
    }
    // The best attempt counts: a retake can raise the score and pass, never take a pass back.
    var best = parseFloat(get('cmi.core.score.raw'));
    if (!(best >= raw)) set('cmi.core.score.raw', raw);
    set('cmi.core.score.min', 0);
    set('cmi.core.score.max', 100);
    var passed = result.mastered === true || get('cmi.core.lesson_status') === 'passed';
    set('cmi.core.lesson_status', passed ? 'passed' : 'failed');
    commit();
    if (initialized) {
      status.textContent = 'Check sent to the gradebook: ' + result.score + ' of ' + total + (result.mastered ? ', mastered.' : '.');
    }
  }

  window.addEventListener('message', function (event) {
    if (event.source !== frame.contentWindow) return;
    if (named && event.origin !== mine) return;
    var data = event.data;
    if (!data || data.v !== 1 || data.type !== 'idemlab:quiz' || data.lesson !== lesson) return;
    try {
      record(data);
    } catch (e) {
      status.textContent = 'The LMS refused the results: ' + e;
    }
  });

  // HHHH:MM:SS.SS, SCORM 1.2's CMITimespan.
  function timespan(ms) {
    var centis = Math.floor(ms / 10);
    var pad = function (value, width) {
      var text = String(value);
      while (text.length < width) text = '0' + text;
      return text;
    };
    var hours = Math.min(9999, Math.floor(centis / 360000));
    var minutes = Math.floor(centis / 6000) % 60;
    var seconds = Math.floor(centis / 100) % 60;
    return pad(hours, 4) + ':' + pad(minutes, 2) + ':' + pad(seconds, 2) + '.' + pad(centis % 100, 2);
  }

  function finish() {
    if (finished || !initialized) return;
    finished = true;
    set('cmi.core.session_time', timespan(Date.now() - started));
    commit();
    api.LMSFinish('');
  }
  window.addEventListener('pagehide', finish);
  window.addEventListener('unload', finish);
})();
