// The first view: before the wasm arrives, shows what the link opens from the files that
// `idemlab first` wrote at build time (first/NAME.json and NAME.svg). A file, not an inline
// script, so the page's CSP stays as strict; it sets text only, never HTML. It runs in the
// head, before the first paint: the page's own markup, whose boxes move as the wasm fills
// them, waits unseen until the page is ready (style.css), so nothing the learner saw moves.
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
  // embed. Their links show only the loading note rather than words the page will not show.
  var OTHER_WORDS = ['lang', 'steps', 'build', 'gate', 'hide'];
  // A preset's summary shows while the run is the preset's, whatever its seed and compare.
  var PRESET_RUN = ['seed', 'preset', 'compare'];
  var params = new URLSearchParams(location.search);
  var keys = Array.from(params.keys());
  var has = function (list, key) { return list.indexOf(key) >= 0; };
  var tracker = function (key) { return key.indexOf('utm_') === 0; };
  var sameRun = keys.every(function (key) { return has(SAME_RUN, key) || tracker(key); });
  var root = document.documentElement;
  root.classList.add('first-view');

  // The entry whose first view this link shows, or null for the loading note alone.
  function entry() {
    if (keys.some(function (key) { return has(OTHER_WORDS, key); })) return null;
    // A check without `lesson=` is Lesson A's, as the page reads it.
    var lesson = params.get('lesson') || (params.has('quiz') ? 'a' : null);
    if (lesson !== null) {
      if (!/^[a-z]$/.test(lesson)) return null;
      if (params.has('quiz')) return lesson + '-check';
      var step = params.get('step') || '1';
      return /^[1-9][0-9]?$/.test(step) ? lesson + '-' + step : null;
    }
    if (params.has('preset')) {
      var preset = params.get('preset');
      var kept = keys.every(function (key) {
        return has(SAME_RUN, key) || has(PRESET_RUN, key) || tracker(key);
      });
      return kept && /^[a-z0-9-]{1,40}$/.test(preset) ? 'preset-' + preset : null;
    }
    // The bare page has no words of its own: only its picture, which another run is not.
    return sameRun ? 'bare' : null;
  }

  var name = entry();
  var loaded = name === null ? Promise.resolve(null) : fetch('first/' + name + '.json')
    .then(function (response) { return response.ok ? response.json() : null; })
    .catch(function () { return null; });
  var parsed = new Promise(function (done) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', done);
    else done();
  });
  // A lesson's view: its words go in the lesson's column (`show`).
  var lessonView = name !== null && /^[a-z]-/.test(name);
  // The layout the page will have, set as soon as the markup is parsed, before the file
  // arrives; the title and tagline show only once it is known, where the page keeps them.
  parsed.then(function () {
    if (root.getAttribute('data-state') === 'ready') return;
    var app = document.getElementById('app');
    var column = document.getElementById('lesson-column');
    if (lessonView && app && column) {
      app.classList.add('lesson');
      if (params.get('embed') === '1') app.classList.add('embed');
      column.hidden = false;
    }
    // A lesson (laid out once its file arrives: the page may refuse it), an embed, another
    // language or a task may lay the page out otherwise than the bare markup.
    var plain = !keys.some(function (key) {
      return has(OTHER_WORDS, key) || key === 'lesson' || key === 'quiz' || key === 'embed';
    });
    if (plain) root.classList.add('first-laid');
  });
  Promise.all([loaded, parsed]).then(function (results) {
    // The wasm may have won the race: then it has painted the page and this is not needed.
    if (root.getAttribute('data-state') === 'ready') return;
    var section = document.getElementById('first');
    if (!section) return;
    // A file of another build's shape (a cache between deploys) shows the loading note alone.
    try {
      if (results[0]) show(section, results[0]);
      // A lesson the build wrote a view for is one the page opens, in the layout set above.
      if (results[0] && lessonView) root.classList.add('first-laid');
    } catch (error) {
      section.replaceChildren(section.querySelector('.first-note'));
    }
    section.hidden = false;
  });

  function show(section, first) {
    var text = function (el, words) {
      el.textContent = words;
      el.hidden = !words;
    };
    var heading = document.getElementById('first-heading');
    text(heading, first.heading);
    // A check's introduction names the link's seed: written in where the page would read
    // the same number, else left out for the wasm to write.
    var words = first.text;
    if (words.indexOf('{seed}') >= 0) {
      var seed = params.get('quiz') || '';
      words = /^(0|[1-9][0-9]{0,18})$/.test(seed) ? words.replace('{seed}', seed) : '';
    }
    text(document.getElementById('first-text'), words);
    if (first.question) heading.after(predict(first));
    if (first.terms_summary) heading.after(terms(first));
    if (first.picture && sameRun) {
      var picture = document.getElementById('first-picture');
      picture.src = 'first/' + name + '.svg';
      picture.alt = 'Timeline A of this run, as the lab draws it';
      picture.hidden = false;
    }
    // A lesson's words stand where the page will put them: in the lesson's column, under its
    // picker and step list, in the page's own markup and classes, so the wasm takes over in
    // the same boxes.
    var column = document.getElementById('lesson-column');
    if (lessonView && column) {
      lessonHead(first);
      document.getElementById('first-body').className = /-check$/.test(name) ? 'quiz' : 'lesson-step';
      column.appendChild(section);
    }
  }

  // The picker's button of the open lesson, then the numbered list of its steps.
  function lessonHead(first) {
    var picker = document.getElementById('first-lesson');
    picker.firstElementChild.textContent = first.lesson;
    picker.hidden = !first.lesson;
    if (first.steps.length === 0) return;
    var label = unnamed(document.getElementById('lesson-steps-label'));
    var list = document.getElementById('first-steps');
    first.steps.forEach(function (title, i) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = title;
      button.setAttribute('aria-disabled', 'true');
      if (i === first.step) button.setAttribute('aria-current', 'step');
      var item = document.createElement('li');
      item.appendChild(button);
      list.appendChild(item);
    });
    list.hidden = false;
    list.before(label);
  }

  // The step's question, from the page's own template; its choices do nothing yet.
  function predict(first) {
    var section = stamp('tpl-predict');
    var setup = section.querySelector('.predict-setup');
    first.setup.forEach(function (piece) {
      if (!piece[1]) return setup.append(piece[0]);
      // A term, underlined as the page underlines it; its definition comes with the wasm.
      var term = document.createElement('span');
      term.className = 'term';
      term.textContent = piece[0];
      setup.appendChild(term);
    });
    section.querySelector('.predict-question').textContent = first.question;
    var group = section.querySelector('.predict-choices');
    first.choices.forEach(function (choice) {
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = choice;
      button.setAttribute('aria-disabled', 'true');
      group.appendChild(button);
    });
    return section;
  }

  // The step's definitions, folded as the page folds them.
  function terms(first) {
    var details = stamp('tpl-terms');
    details.querySelector('summary').textContent = first.terms_summary;
    var list = details.querySelector('dl');
    first.terms.forEach(function (pair) {
      var word = document.createElement('dt');
      word.textContent = pair[0];
      var meaning = document.createElement('dd');
      meaning.textContent = pair[1];
      list.appendChild(word);
      list.appendChild(meaning);
    });
    return details;
  }

  // A copy of a template's element, its ids and the references to them taken out: the page's
  // own copy, painted by the wasm, keeps them.
  function stamp(id) {
    return unnamed(document.getElementById(id).content.firstElementChild);
  }

  function unnamed(node) {
    var copy = node.cloneNode(true);
    [copy].concat(Array.from(copy.querySelectorAll('[id], [aria-labelledby]'))).forEach(function (el) {
      el.removeAttribute('id');
      el.removeAttribute('aria-labelledby');
    });
    return copy;
  }
})();
