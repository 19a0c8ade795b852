// The first view: before the wasm arrives, shows what the link opens from the files that
// `idemlab first` wrote at build time (first/NAME.json and NAME.svg). A file, not an inline
// script, so the page's CSP stays as strict; it sets text only, never HTML.
(function () {
  'use strict';
  // Keys that change neither the step's words nor run A: with only these, the built picture
  // is run A's. Any other key (a scenario key, compare, zoom, cursor, …) changes the run, so
  // the words show at once and the picture waits for the wasm. Trackers (utm_*) change nothing.
  // (`theme` is not one: the picture follows the browser's scheme, not the link's.)
  var SAME_RUN = ['lesson', 'step', 'quiz', 'embed', 'tab', 'focus', 'height',
    'report', 'controls', 'keys', 'speed', 'v',
    // codec::TRACKERS, which every decoder skips.
    'fbclid', 'gclid', 'gbraid', 'wbraid', 'dclid', 'msclkid', 'mc_cid', 'mc_eid', 'yclid',
    'igshid', 'twclid', 'ttclid', 'li_fat_id', '_ga', '_gl', 'srsltid'];
  // Keys that change the words themselves: another language, an instructor's own steps, the
  // finale's task, a step that does not wait for its answer (gate=0), parts hidden by an
  // embed. Their links show nothing early rather than words the page will not show.
  var OTHER_WORDS = ['lang', 'steps', 'build', 'gate', 'hide'];
  var params = new URLSearchParams(location.search);
  var sameRun = true;
  var keys = Array.from(params.keys());
  for (var i = 0; i < keys.length; i++) {
    if (OTHER_WORDS.indexOf(keys[i]) >= 0) return;
    if (SAME_RUN.indexOf(keys[i]) < 0 && keys[i].indexOf('utm_') !== 0) sameRun = false;
  }
  // A check without `lesson=` is Lesson A's, as the page reads it.
  var lesson = params.get('lesson') || (params.has('quiz') ? 'a' : null);
  var name = 'bare';
  if (lesson !== null) {
    if (!/^[a-z]$/.test(lesson)) return;
    var step = params.get('step') || '1';
    if (params.has('quiz')) name = lesson + '-check';
    else if (/^[1-9][0-9]?$/.test(step)) name = lesson + '-' + step;
    else return;
  } else if (!sameRun) {
    // The bare page has no words of its own to show: only its picture, which this run is not.
    return;
  }
  var section = document.getElementById('first');
  if (!section) return;
  var text = function (id, words) {
    var el = document.getElementById(id);
    el.textContent = words;
    el.hidden = !words;
  };
  fetch('first/' + name + '.json').then(function (response) {
    return response.ok ? response.json() : null;
  }).then(function (first) {
    // The wasm may have won the race: then it has painted the page and this is not needed.
    if (!first || document.documentElement.getAttribute('data-state') === 'ready') return;
    text('first-heading', first.heading);
    text('first-text', first.text);
    text('first-setup', first.setup);
    text('first-question', first.question);
    var list = document.getElementById('first-choices');
    first.choices.forEach(function (choice) {
      var item = document.createElement('li');
      item.textContent = choice;
      list.appendChild(item);
    });
    list.hidden = first.choices.length === 0;
    if (first.picture && sameRun) {
      var picture = document.getElementById('first-picture');
      picture.src = 'first/' + name + '.svg';
      picture.alt = 'Timeline A of this run, as the lab draws it';
      picture.hidden = false;
    }
    section.hidden = false;
  }).catch(function () {
    // No first view (an old build, a file missing): the page starts as before, with the wasm.
  });
})();
