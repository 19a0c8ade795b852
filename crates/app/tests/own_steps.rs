//! An instructor's own steps (`steps=`, `app::own`): opened from their link and walked, a
//! question that holds the run until answered, a step over runs not its own, the last step's
//! score, and the embed dialog's composer that writes them.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{Effects, Msg, State};
use idemlab_app::{OwnMsg, ScenarioMsg};
use support::{load, load_measured, ran_and_measured};

/// The page link of an instructor's own `lines`, one step a line.
fn own_link(lines: &str) -> String {
    format!(
        "steps={}",
        idemlab_core::scenario::codec::percent_encode(lines)
    )
}

/// A link with an instructor's own steps opens the step it names, with its
/// scenario and compare; the box names it as the instructor's, states its counts, and Previous
/// and Next walk the sequence, each a history entry, with the link naming the step.
#[test]
fn an_instructors_own_steps_open_from_their_link_and_walk() {
    let lines = "seed=7&preset=lost-ack&caption=Three%20repeats&check=duplicates:3\nseed=7&preset=lost-ack&compare=dedup%3Datomic&caption=One%20key&check=b.duplicates:0";
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    let mut state = load(&format!("steps={steps}&step=2&embed=1&controls="));
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert_eq!(
        state.page.scenario.preset.map(|p| p.name()),
        Some("lost-ack")
    );
    let view = app::own_step_view(&state).expect("the instructor's step");
    assert_eq!(view.heading, "Your instructor's step 2 of 2");
    assert_eq!(view.caption, "One key");
    assert_eq!(view.checks, ["Run B: Duplicates 0"]);
    assert!(view.previous && !view.next);
    let effects = app::update(&mut state, Msg::Own(OwnMsg::Open(0)));
    assert!(
        effects.rerun && effects.url == Some(app::UrlWrite::Push),
        "locks let the author's steps open"
    );
    assert_eq!(state.page.compare, None);
    let query = state.to_query();
    // Written back with each caption and compare escaped once, as the whole value is: a link
    // that escaped them inside their lines too still loads, as above.
    let once = lines.replace("%20", " ").replace("%3D", "=");
    let once = idemlab_core::scenario::codec::percent_encode(&once);
    assert!(
        query.contains("&step=1&") && query.contains(&format!("steps={once}")),
        "{query}"
    );
    assert_eq!(
        app::own_step_view(&load(&query)).unwrap().caption,
        "Three repeats"
    );
    assert_eq!(
        app::update(&mut state, Msg::Own(OwnMsg::Open(7))),
        Effects::default()
    );
    assert_eq!(app::own_step_view(&load("seed=7")), None);
}

#[test]
fn an_own_steps_question_holds_the_run_until_answered_and_its_answer_is_the_simulators() {
    let lines = "seed=7&preset=lost-ack&check=effects:7&ask=effects";
    let query = own_link(lines);
    let mut state = load_measured(&query);
    assert!(state.awaiting(), "the question waits for its answer");
    assert!(app::counters_hidden(&state));
    let view = app::own_step_view(&state).unwrap();
    // The stated count would give the answer away: it waits with the question.
    assert!(view.checks.is_empty(), "{:?}", view.checks);
    let question = view.question.unwrap();
    assert_eq!(question.choices.len(), 4);
    let right = question
        .choices
        .iter()
        .position(|c| c == "7")
        .expect("7 is offered");
    let wrong = (right + 1) % 4;
    app::update(&mut state, Msg::Own(OwnMsg::Answer(wrong)));
    assert!(!state.awaiting());
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.checks, ["Run A: Charges 7"]);
    let feedback = view.question.unwrap().feedback.unwrap();
    assert!(feedback.starts_with("Not quite: you chose "), "{feedback}");
    assert!(
        feedback.contains("the simulator's answer is 7."),
        "{feedback}"
    );
    // One answer per step.
    app::update(&mut state, Msg::Own(OwnMsg::Answer(right)));
    let again = app::own_step_view(&state).unwrap().question.unwrap();
    assert_eq!(again.chosen, Some(wrong));
    // gate=0 (an instructor previewing) never holds the run.
    let open = load_measured(&format!("{query}&gate=0"));
    assert!(!open.awaiting());
}

/// Issue 28: only eight fixed "How many … in run A/B?" sentences existed. `q=` gives the
/// question in the instructor's words; the lab still gives the answer and choices, and the
/// line writes the words back as it read them.
#[test]
fn an_own_step_asks_in_the_instructors_words_when_q_gives_them() {
    let lines = "seed=7&preset=lost-ack&ask=effects&q=How%20many%20times%20is%20the%20card%20charged%3F%20(%26%20why%3F)";
    let query = own_link(lines);
    let state = load_measured(&query);
    let question = app::own_step_view(&state).unwrap().question.unwrap();
    assert_eq!(
        question.text,
        "How many times is the card charged? (& why?)"
    );
    assert!(question.choices.contains(&"7".to_string()));
    let steps = state.page.steps.clone().unwrap();
    assert_eq!(app::steps::parse(&app::steps::write(&steps)), Ok(steps));
    // Without q= the lab words it, with the card's count in plain words.
    let plain = "seed=7&preset=lost-ack&ask=lost";
    let state = load_measured(&own_link(plain));
    let question = app::own_step_view(&state).unwrap().question.unwrap();
    assert_eq!(
        question.text,
        "Before the run shows: what will run A's count of lost orders be at its end?"
    );
}

/// An own step's counts and question are about its own runs, so a `step=` changed by hand over
/// other runs shows none of them, says why, and offers its own runs; a link carrying step 1's
/// keys exactly opens the step it names with that step's runs.
#[test]
fn an_own_step_over_runs_not_its_own_hides_its_counts_and_says_why() {
    let lines = "seed=7&preset=lost-ack&check=duplicates:3\nseed=7&preset=race&check=effects:4&ask=duplicates";
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    let mut state = load_measured(&format!("seed=9&preset=lost-ack&steps={steps}&step=2"));
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.heading, "Your instructor's step 2 of 2");
    assert!(view.checks.is_empty() && view.question.is_none() && view.done.is_none());
    assert_eq!(
        view.not_own.as_deref(),
        Some("The runs on screen are not this step's own, so its counts and question are hidden.")
    );
    app::update(&mut state, Msg::Own(OwnMsg::Open(1)));
    ran_and_measured(&mut state);
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.not_own, None);
    assert!(view.question.is_some());
    // The snippet's keys are step 1's: step=2 by hand opens step 2's own runs.
    let by_hand = load(&format!("seed=7&preset=lost-ack&steps={steps}&step=2"));
    assert_eq!(by_hand.page.scenario.preset.map(|p| p.name()), Some("race"));
    assert_eq!(app::own_step_view(&by_hand).unwrap().not_own, None);
}

/// A sequence of questions with no total leaves the learner to count: the last own step says,
/// once its question is answered, how many of the sequence's questions were answered right.
#[test]
fn the_last_own_step_says_how_many_were_answered_right() {
    let lines = "seed=7&preset=lost-ack&ask=effects\nseed=7&preset=lost-ack&compare=dedup%3Datomic&ask=b.duplicates";
    let query = own_link(lines);
    let mut state = load_measured(&query);
    let pick = |state: &State, value: &str| {
        let view = app::own_step_view(state).unwrap();
        assert_eq!(view.done, None);
        let choices = view.question.unwrap().choices;
        choices.iter().position(|c| c == value).unwrap()
    };
    let right = pick(&state, "7");
    app::update(&mut state, Msg::Own(OwnMsg::Answer((right + 1) % 4)));
    app::update(&mut state, Msg::Own(OwnMsg::Open(1)));
    ran_and_measured(&mut state);
    let right = pick(&state, "0");
    app::update(&mut state, Msg::Own(OwnMsg::Answer(right)));
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(
        view.done.as_deref(),
        Some("Last step: 1 of 2 answered right.")
    );
}

/// The snippet's link opens step 1, and states no counts (issue 28: the frame's address, which
/// a printed handout shows, held the answers): the page reads them from the run.
fn the_snippets_link_opens_step_1_and_states_no_counts(state: &State) {
    let query = app::embed_query(state, vec![], None, false);
    assert!(!query.contains("check"), "{query}");
    let opened = load(&query);
    assert_eq!(opened.own_step, Some(0));
    assert_eq!(opened.page.compare, None);
    let steps = opened.page.steps.clone().unwrap();
    assert_eq!(steps.len(), 2);
    assert!(steps.iter().all(|s| s.checks.is_empty()), "{steps:?}");
    // The second step's question keeps the author's words.
    let words = steps[1].ask.as_ref().and_then(|q| q.text.as_deref());
    assert_eq!(
        words,
        Some("How many charges once every order has its key?")
    );
}

fn add(state: &mut State, caption: &str, ask: &str, words: &str) {
    let (caption, ask, words) = (caption.into(), ask.into(), words.into());
    app::update(
        state,
        Msg::Own(OwnMsg::Add {
            caption,
            ask,
            words,
        }),
    );
}

#[test]
fn the_embed_dialogs_composer_writes_a_sequence_that_loads_as_the_authors_steps() {
    let mut state = load("seed=7&preset=lost-ack");
    add(&mut state, "Count the charges", "effects", "");
    assert_eq!(state.compose_error, None);
    // A question about B without a compare is refused, with why; nothing is added.
    add(&mut state, "", "b.duplicates", "");
    assert_eq!(
        state.compose_error.as_deref(),
        Some("a question about B needs a compare")
    );
    // So are words with no count to ask, and words past the bound.
    add(&mut state, "", "", "How many?");
    let why = state.compose_error.clone().unwrap_or_default();
    assert!(why.contains("need a count to ask"), "{why}");
    add(&mut state, "", "effects", &"x".repeat(201));
    assert_eq!(
        state.compose_error.as_deref(),
        Some("`q=`: a question of 1 to 200 characters")
    );
    assert_eq!(state.compose.len(), 1);
    // The second step: the same scenario with a compare.
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=atomic".into())),
    );
    let asks = app::compose_ask_choices(&state);
    assert!(asks
        .iter()
        .any(|(v, l)| v == "b.duplicates" && l == "How many duplicates in run B?"));
    // Plain words: what is lost is orders, not "work".
    assert!(asks
        .iter()
        .any(|(v, l)| v == "b.lost" && l == "How many lost orders in run B?"));
    let words = "How many charges once every order has its key?";
    add(&mut state, "One key per order", "b.effects", words);
    expect![[r#"
        [
            "seed=7&preset=lost-ack · Count the charges · asks: How many charges in run A?",
            "seed=7&preset=lost-ack (B: dedup=atomic) · One key per order · asks: How many charges once every order has its key?",
        ]
    "#]]
    .assert_debug_eq(&app::compose_lines(&state));
    // The snippet's default title names the sequence, not the view on screen.
    assert_eq!(
        app::embed_title(&state, &[]),
        "idemlab: Count the charges (2 steps)"
    );
    the_snippets_link_opens_step_1_and_states_no_counts(&state);
    app::update(&mut state, Msg::Own(OwnMsg::Remove(0)));
    assert_eq!(state.compose.len(), 1);
    app::update(&mut state, Msg::Own(OwnMsg::Clear));
    assert!(state.compose.is_empty());
}
