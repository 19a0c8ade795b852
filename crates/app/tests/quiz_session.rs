//! The mastery check on the page (`app::QuizSession`): drawn on load, resumed, each answer
//! checked and then locked, the question's run hidden until then, the dots, the score and the
//! status line. `tests/quiz.rs` checks the questions themselves.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::ContractsMsg;
use idemlab_app::{AnswerInput, Focus, Msg, State, Tab};
use idemlab_app::{LessonMsg, PlaybackMsg, QuizMsg, SweepMsg};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::lessons::{Side, LESSONS};
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::{Form, QUESTIONS};
use support::{load, ran, right_answer};

#[test]
fn a_quiz_link_draws_its_check_on_load_and_opens_the_lessons_tab() {
    let state = load("lesson=b&quiz=99");
    let session = state.quiz.as_ref().expect("drawn on load, not by painting");
    assert_eq!((session.quiz.lesson, session.quiz.seed), ("b", 99));
    assert_eq!(
        session.shown, None,
        "a fresh check opens on its introduction"
    );
    assert_eq!(state.tab, Tab::Lessons);
    assert!(state.to_query().ends_with("lesson=b&quiz=99"));
}

#[test]
fn a_quiz_resumes_where_the_learner_left_it_and_next_moves_on() {
    let mut state = load("lesson=a&quiz=5");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let answer = right_answer(&state);
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Answer(answer)));
    assert!(effects.save_progress && effects.rerun);
    let session = state.quiz.clone().unwrap();
    assert_eq!(
        state.page.cursor,
        Some(session.quiz.questions[0].proof_event)
    );
    let mut stored = Progress::new();
    stored.record(&session.quiz, &session.answers);
    // The last step's "take the check" resumes the unfinished one, whatever fresh seed came.
    let mut again = load(&format!("lesson=a&step={}", LESSONS[0].steps.len()));
    app::update(
        &mut again,
        Msg::Quiz(QuizMsg::Start {
            stored: stored.clone(),
            fresh_seed: 777,
        }),
    );
    let resumed = again.quiz.as_ref().unwrap();
    assert_eq!(resumed.quiz.seed, 5);
    assert_eq!(resumed.shown, Some(1), "at the first open question");
    app::update(&mut again, Msg::Quiz(QuizMsg::Next));
    assert_eq!(again.quiz.as_ref().unwrap().shown, Some(2));
    app::update(&mut again, Msg::Quiz(QuizMsg::Show(QUESTIONS + 3)));
    assert_eq!(again.quiz.as_ref().unwrap().shown, Some(QUESTIONS));
}

/// After the learner has moved about the answered question's run, "Point at the proof again"
/// puts the cursor back on the event that proves the answer.
#[test]
fn point_at_the_proof_again_puts_the_cursor_back_on_the_proving_event() {
    let mut state = load("lesson=a&quiz=5");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let answer = right_answer(&state);
    app::update(&mut state, Msg::Quiz(QuizMsg::Answer(answer)));
    ran(&mut state);
    let proof = state.quiz.as_ref().unwrap().quiz.questions[0].proof_event;
    app::update(&mut state, Msg::Playback(PlaybackMsg::GoTo(0)));
    assert_ne!(
        state.page.cursor,
        Some(proof),
        "the cursor moved off the proof"
    );
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Proof));
    assert_eq!(state.page.cursor, Some(proof));
    assert_eq!(state.quiz.as_ref().unwrap().shown, Some(0));
    assert_eq!(effects.focus, Some(Focus::QuizTitle));
}

#[test]
fn a_quiz_answer_is_checked_before_it_is_locked_in() {
    let mut state = load("lesson=a&quiz=31");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let empty = AnswerInput {
        choice: None,
        number: "lots".into(),
    };
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Answer(empty)));
    let session = state.quiz.as_ref().unwrap();
    assert!(!effects.save_progress);
    assert!(session.answers[0].is_none());
    assert!(session.feedback.is_some());
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Try(None)));
    assert!(!effects.rerun);
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Close));
    assert!(state.quiz.is_none() && effects.rerun);
    let last = LESSONS[0].steps.len() - 1;
    assert_eq!(state.lesson.unwrap().index(), last);
}

/// "Check my answer" with nothing chosen redraws the form, which would drop the keyboard's focus
/// on the page: it goes back to the form's first field.
#[test]
fn a_check_answer_it_cannot_take_keeps_the_focus_in_the_form() {
    let mut state = load("lesson=a&quiz=3");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let effects = app::update(
        &mut state,
        Msg::Quiz(QuizMsg::Answer(AnswerInput {
            choice: None,
            number: String::new(),
        })),
    );
    assert_eq!(effects.focus, Some(Focus::QuizAnswer));
    assert!(state.quiz.as_ref().unwrap().feedback.is_some());
}

#[test]
fn the_quiz_says_right_or_wrong_and_all_right_masters_the_lesson() {
    let mut state = load("lesson=b&quiz=8");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let (hint, result) = state.quiz.as_ref().unwrap().feedback(0);
    assert!(
        hint.starts_with("One attempt per question") && result.is_none(),
        "{hint}"
    );
    for index in 0..QUESTIONS {
        let answer = right_answer(&state);
        app::update(&mut state, Msg::Quiz(QuizMsg::Answer(answer)));
        let (text, result) = state.quiz.as_ref().unwrap().feedback(index);
        assert!(text.starts_with("Right."), "{text}");
        assert_eq!(result, Some(true));
        app::update(&mut state, Msg::Quiz(QuizMsg::Next));
    }
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(session.shown, Some(QUESTIONS));
    let (text, mastered) = session.score_text();
    assert!(mastered);
    expect!["4 of 4 right: Lesson B mastered."].assert_eq(&text);
    // The score shows the last question's runs, still named in words, not by their keys.
    assert!(app::title(&state, Side::A).ends_with("the question's run"));
}

/// A given answer to `question` that is wrong.
fn wrong(question: &idemlab_course::quiz::Question) -> u32 {
    (0..).find(|&a| !question.is_right(a)).unwrap()
}

#[test]
fn quiz_dots_mark_right_wrong_current_and_to_come() {
    let mut session = app::QuizSession::draw(&LESSONS[0], 5, &Progress::new());
    let qs = session.quiz.questions.clone();
    session.answers[0] = Some(qs[0].answer);
    session.answers[1] = Some(wrong(&qs[1]));
    let dots = session.dots(2);
    assert_eq!(dots.len(), QUESTIONS);
    let texts: Vec<&str> = dots.iter().map(|d| d.text.as_str()).collect();
    assert_eq!(&texts[..3], ["1 ✓", "2 ✗", "3 •"]);
    assert_eq!(dots[0].label, "question 1: right");
    assert_eq!(dots[1].label, "question 2: wrong");
    assert_eq!(dots[2].label, "question 3: current question");
    assert_eq!(dots[3].label, "question 4: to come");
    assert_eq!(dots[3].text, "4 ");
    let current: Vec<bool> = dots.iter().map(|d| d.current).collect();
    assert_eq!(current.iter().filter(|&&c| c).count(), 1);
    assert!(dots[2].current);
}

#[test]
fn three_of_four_says_in_questions_what_mastery_needs() {
    // A percent beside "all 4 right" reads as two rules, one of which 3 of 4 might meet: one
    // rule, in questions, and no percent.
    let mut state = load("lesson=a&quiz=31");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    for index in 0..QUESTIONS {
        let mut answer = right_answer(&state);
        if index == 0 {
            let question = &state.quiz.as_ref().unwrap().quiz.questions[0];
            answer.choice = answer.choice.map(|c| (c + 1) % 3);
            answer.number = wrong(question).to_string();
        }
        app::update(&mut state, Msg::Quiz(QuizMsg::Answer(answer)));
        app::update(&mut state, Msg::Quiz(QuizMsg::Next));
    }
    let (text, mastered) = state.quiz.as_ref().unwrap().score_text();
    assert!(!mastered);
    expect!["3 of 4 right: not mastered yet; all 4 right masters the lesson. Try a new variant when ready."].assert_eq(&text);
}

#[test]
fn quiz_status_says_not_taken_best_so_far_or_mastered() {
    let quiz = idemlab_course::quiz::generate(&LESSONS[0], 5);
    let mut progress = Progress::new();
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Not taken yet: {QUESTIONS} questions, one attempt each.")
    );
    let mut answers: Vec<Option<u32>> = quiz.questions.iter().map(|q| Some(q.answer)).collect();
    answers[0] = Some(wrong(&quiz.questions[0]));
    progress.record(&quiz, &answers);
    let best = QUESTIONS - 1;
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Best so far: {best} of {QUESTIONS}; all {QUESTIONS} right masters the lesson.")
    );
    answers[0] = Some(quiz.questions[0].answer);
    progress.record(&quiz, &answers);
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Mastered (best {QUESTIONS} of {QUESTIONS}).")
    );
}

#[test]
fn the_quiz_titles_its_views_and_marks_the_choices_once_answered() {
    let mut state = load("lesson=a&quiz=5");
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(session.title(), "Mastery check: Lesson A");
    assert!(session.intro_text().contains("Quiz seed 5"));
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(
        session.title(),
        format!("Lesson A, question 1 of {QUESTIONS}")
    );
    let index =
        (0..QUESTIONS).find(|&i| matches!(session.quiz.questions[i].form, Form::Choices(_)));
    let Some(index) = index else {
        panic!("quiz seed 5 of lesson a has a question with choices");
    };
    let question = session.quiz.questions[index].clone();
    let wrong = wrong(&question);
    let mut session = state.quiz.clone().unwrap();
    assert!(
        !session.choice_text(index, wrong).contains('✗'),
        "no marks before answering"
    );
    session.answers[index] = Some(wrong);
    assert!(session
        .choice_text(index, wrong)
        .ends_with(" ✗ your answer"));
    let right = session.choice_text(index, question.answer);
    assert!(right.ends_with(" ✓ the right answer"), "{right}");
    session.shown = Some(QUESTIONS);
    assert_eq!(session.title(), "Mastery check: Lesson A, your score");
    let review = session.review();
    assert_eq!(review.len(), QUESTIONS);
    assert!(
        review[index].starts_with("✗ you answered "),
        "{}",
        review[index]
    );
}

#[test]
fn a_quiz_question_hides_its_run_until_the_answer_is_locked() {
    let mut state = load("lesson=a&quiz=5");
    // A reload of a first question opens the introduction with that question's scenario.
    assert!(
        app::run_hidden(&state),
        "the introduction hides the run too"
    );
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    assert!(effects.rerun);
    assert!(app::run_hidden(&state), "an open question hides its run");
    assert_eq!(state.page.compare, None, "and shows no B");
    let question = state.quiz.as_ref().unwrap().quiz.questions[0].clone();
    // The question's scenario is nowhere the learner could copy it from before the answer is
    // locked: not the link, not the run's title.
    let seed = format!("seed={}", decode_lenient(&question.query).0.scenario.seed);
    assert!(!state.to_query().contains(&seed), "{}", state.to_query());
    assert_eq!(
        state.page.scenario,
        idemlab_core::scenario::Scenario::default()
    );
    assert_eq!(app::title(&state, Side::A), "The question's run (hidden)");
    // A sweep of the question's scenario would count what the question asks.
    let effects = app::update(&mut state, Msg::Sweep(SweepMsg::Start("1".into())));
    assert!(state.sweep.is_none() && !effects.work);
    let effects = app::update(&mut state, Msg::Contracts(ContractsMsg::Start("1".into())));
    assert!(
        state.contracts.is_none() && !effects.work,
        "nor the contracts table"
    );
    let answer = right_answer(&state);
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Answer(answer)));
    assert!(effects.rerun && effects.save_progress);
    assert!(!app::run_hidden(&state), "a locked answer opens the run");
    assert_eq!(
        idemlab_core::scenario::encode(&state.page.scenario),
        question.query
    );
    assert_eq!(state.page.cursor, Some(question.proof_event));
    assert_eq!(state.page.compare, question.proof_compare);
    app::update(&mut state, Msg::Quiz(QuizMsg::Next));
    assert!(app::run_hidden(&state), "the next question hides its own");
    app::update(&mut state, Msg::Quiz(QuizMsg::Close));
    assert!(!app::run_hidden(&state), "a lesson step hides nothing");
}

#[test]
fn closing_the_lesson_mid_question_runs_a_real_scenario_not_the_hidden_empty_one() {
    // Closing mid-question must not paint the never-run question's zeros as counts.
    let mut state = load("lesson=a&quiz=5");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    assert!(app::run_hidden(&state));
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Close));
    assert!(!app::run_hidden(&state));
    assert!(effects.rerun, "the page runs its scenario again");
}

/// The choice question of lesson A's check for quiz seed 5, with the state showing it.
fn choice_question_shown() -> (State, usize, idemlab_course::quiz::Question) {
    let mut state = load("lesson=a&quiz=5");
    let session = state.quiz.as_ref().unwrap();
    let index = (0..QUESTIONS)
        .find(|&i| matches!(session.quiz.questions[i].form, Form::Choices(_)))
        .expect("quiz seed 5 of lesson a has a question with choices");
    let question = session.quiz.questions[index].clone();
    app::update(&mut state, Msg::Quiz(QuizMsg::Show(index)));
    ran(&mut state);
    (state, index, question)
}

#[test]
fn show_my_choice_as_b_is_refused_until_the_answer_is_locked() {
    let (mut state, index, question) = choice_question_shown();
    let Form::Choices(choices) = &question.form else {
        unreachable!("a choice question")
    };
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Try(Some(question.answer))));
    assert!(!effects.rerun && effects.render);
    assert_eq!(state.page.compare, None);
    let feedback = state.quiz.as_ref().unwrap().feedback(index).0;
    assert!(feedback.starts_with("Lock your answer first"), "{feedback}");
    let wrong = wrong(&question);
    let locked = AnswerInput {
        choice: Some(wrong),
        number: String::new(),
    };
    assert!(
        !state.quiz.as_ref().unwrap().offers_try(index),
        "not before locking"
    );
    app::update(&mut state, Msg::Quiz(QuizMsg::Answer(locked)));
    assert!(
        state.quiz.as_ref().unwrap().offers_try(index),
        "a wrong choice offers itself"
    );
    assert_eq!(
        state.page.compare, question.proof_compare,
        "the right one as B"
    );
    assert_eq!(app::title(&state, Side::B), "B: the right choice");
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::Try(Some(wrong))));
    assert!(effects.rerun);
    assert_eq!(
        state.page.compare.as_deref(),
        Some(choices[wrong as usize].keys.as_str())
    );
    // The learner's wrong choice as B is named by its words, never as the right one.
    let label = &choices[wrong as usize].label;
    assert_eq!(app::title(&state, Side::B), format!("B: {label}"));
}

#[test]
fn a_right_choice_is_not_offered_as_b_since_b_already_shows_it() {
    let (mut state, index, question) = choice_question_shown();
    let locked = AnswerInput {
        choice: Some(question.answer),
        number: String::new(),
    };
    app::update(&mut state, Msg::Quiz(QuizMsg::Answer(locked)));
    assert_eq!(state.page.compare, question.proof_compare);
    assert!(!state.quiz.as_ref().unwrap().offers_try(index));
}
