//! Results to the course page (`report=parent` or `report=ORIGIN`, `app::report`), protocol
//! `v: 1`: what began and its attempt, the step reached, each prediction with its value and
//! position, the check's questions and score once its last answer is locked, an own sequence's
//! steps and summary under its own id, every message with the view it ran; the origin they go
//! to; and the embed dialog's box that asks for them.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{AnswerInput, Msg, Report, Started, Tab};
use idemlab_app::{LessonMsg, OwnMsg, QuizMsg};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::{Form, QUESTIONS};
use support::{load, load_measured, right_choice};

fn step(lesson: &'static str, step: usize) -> Report {
    Report::Step {
        lesson,
        id: lesson.into(),
        step,
        steps: None,
    }
}

fn start(what: Started, id: &str, attempt: u32, seed: Option<u64>) -> Report {
    Report::Start {
        what,
        id: id.into(),
        attempt,
        seed,
        steps: None,
    }
}

/// Each report as the page posts it: its JSON, with the view the state is in.
fn posted(state: &app::State, reports: &[Report]) -> String {
    let view = app::report_view(state);
    let lines: Vec<String> = reports.iter().map(|r| r.json(&view)).collect();
    lines.join("\n")
}

#[test]
fn report_parent_sends_the_start_and_the_step_reached_and_nothing_without_it() {
    let mut state = load("lesson=a&step=1&report=parent");
    assert_eq!(
        app::report_on_load(&mut state),
        [start(Started::Lesson, "a", 1, None), step("a", 1)]
    );
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert_eq!(effects.reports, [step("a", 2)]);
    let effects = app::update(&mut state, Msg::OpenTab(Tab::Events));
    assert_eq!(effects.reports, []);
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert_eq!(effects.reports, [], "the same step");
    let mut quiet = load("lesson=a&step=1");
    assert_eq!(app::report_on_load(&mut quiet), []);
    let effects = app::update(&mut quiet, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert_eq!(effects.reports, []);
    assert!(load("seed=1&report=parent")
        .to_query()
        .ends_with("&report=parent"));
}

#[test]
fn every_message_carries_v_1_and_the_view_it_ran() {
    let mut state = load("lesson=a&step=2&report=parent");
    let reports = app::report_on_load(&mut state);
    expect![[r#"
        {"attempt":1,"id":"a","type":"idemlab:start","v":1,"view":"seed=7&preset=lost-ack&op=set&compare=op%3Dcharge&tab=lessons&lesson=a&step=2&report=parent","what":"lesson"}
        {"id":"a","lesson":"a","step":2,"type":"idemlab:step","v":1,"view":"seed=7&preset=lost-ack&op=set&compare=op%3Dcharge&tab=lessons&lesson=a&step=2&report=parent"}"#]]
    .assert_eq(&posted(&state, &reports));
    // An edited view says so: the course page compares `view` with the link it framed.
    let effects = app::update(&mut state, Msg::Scenario(app::ScenarioMsg::NewSeed(9)));
    let view = app::report_view(&state);
    assert!(
        view.contains("seed=9") && !view.contains("cursor="),
        "{view}"
    );
    assert_eq!(effects.reports, []);
    assert!(app::height_json(480).contains(r#""v":1"#));
    assert_eq!(
        app::frame_resize_json(480),
        r#"{"height":480,"subject":"lti.frameResize"}"#
    );
}

#[test]
fn report_parent_sends_each_prediction_with_its_value_and_position() {
    let mut state = load_measured("lesson=a&step=1&report=parent");
    let right = right_choice(&LESSONS[0], 0);
    let choices = LESSONS[0].steps[0].predict.choices();
    let wrong = (right + 1) % choices.len();
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Predict(wrong)));
    let [Report::Prediction {
        lesson: "a",
        step: 1,
        answer,
        value,
        choice,
        correct: false,
        steps: None,
        ..
    }] = effects.reports.as_slice()
    else {
        panic!("one prediction: {:?}", effects.reports);
    };
    assert_eq!(*answer, wrong);
    assert_eq!(choice, &choices[wrong]);
    let expected = match choices[wrong].parse() {
        Ok(count) => app::Picked::Count(count),
        Err(_) => app::Picked::Words(choices[wrong].clone()),
    };
    assert_eq!(value, &expected);
    // Answered once: a second choice sends nothing.
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Predict(right)));
    assert_eq!(effects.reports, []);
}

/// Answers the open check, every question right but `wrong_at`'s, and returns its reports.
fn take_check(state: &mut app::State, wrong_at: Option<usize>) -> Vec<Report> {
    app::update(state, Msg::Quiz(QuizMsg::Begin));
    let questions = state.quiz.as_ref().unwrap().quiz.questions.clone();
    let mut reports = Vec::new();
    for (i, question) in questions.iter().enumerate() {
        let answer = match wrong_at == Some(i) {
            true => (0..).find(|&a| !question.is_right(a)).unwrap(),
            false => question.answer,
        };
        let input = match question.form {
            Form::Choices(_) => AnswerInput {
                choice: Some(answer),
                number: String::new(),
            },
            Form::Number => AnswerInput {
                choice: None,
                number: answer.to_string(),
            },
        };
        reports.extend(app::update(state, Msg::Quiz(QuizMsg::Answer(input))).reports);
        reports.extend(app::update(state, Msg::Quiz(QuizMsg::Next)).reports);
    }
    reports
}

#[test]
fn report_parent_sends_the_checks_questions_and_score_once_its_last_answer_is_locked() {
    for (seed, wrong_at) in [(5, None), (31, Some(3))] {
        let mut state = load(&format!("lesson=a&quiz={seed}&report=parent"));
        assert_eq!(
            app::report_on_load(&mut state),
            [
                start(Started::Lesson, "a", 1, None),
                start(Started::Check, "a", 1, Some(seed))
            ],
            "no step while the check is open"
        );
        let questions = state.quiz.as_ref().unwrap().quiz.questions.clone();
        let reports = take_check(&mut state, wrong_at);
        let [Report::Quiz {
            lesson: "a",
            seed: sent,
            attempt: 1,
            score,
            total,
            mastered,
            questions: entries,
        }] = reports.as_slice()
        else {
            panic!("one score: {reports:?}");
        };
        let right = if wrong_at.is_some() { 3 } else { 4 };
        assert_eq!((*sent, *score, *total), (seed, right, QUESTIONS as u32));
        assert_eq!(*mastered, right == 4);
        assert_eq!(entries.len(), QUESTIONS);
        for (i, (entry, question)) in entries.iter().zip(&questions).enumerate() {
            assert_eq!(entry.kind, question.kind.name());
            assert_eq!(entry.right, question.answer);
            assert_eq!(entry.correct, wrong_at != Some(i));
            assert_eq!(entry.correct, entry.answer == entry.right);
            assert_eq!(
                entry.keys.is_some(),
                matches!(question.form, Form::Choices(_))
            );
        }
    }
}

#[test]
fn a_new_variant_of_the_check_is_its_next_attempt() {
    let mut state = load("lesson=b&quiz=5&report=parent");
    app::report_on_load(&mut state);
    take_check(&mut state, Some(0));
    let stored = Progress::new();
    let effects = app::update(&mut state, Msg::Quiz(QuizMsg::New { seed: 6, stored }));
    assert_eq!(effects.reports, [start(Started::Check, "b", 2, Some(6))]);
    let reports = take_check(&mut state, None);
    assert!(
        matches!(
            reports.as_slice(),
            [Report::Quiz {
                lesson: "b",
                seed: 6,
                attempt: 2,
                score: 4,
                mastered: true,
                ..
            }]
        ),
        "{reports:?}"
    );
    let json = reports[0].json("v");
    assert!(
        json.contains(r#""attempt":2"#) && json.contains(r#""seed":"6""#),
        "{json}"
    );
    assert!(json.contains(r#""questions":[{"#), "{json}");
}

fn own_query(lines: &str) -> String {
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    format!("steps={steps}&report=parent")
}

#[test]
fn an_own_sequence_reports_under_an_id_from_its_content_and_sums_up_its_last_step() {
    let lines = "seed=7&preset=lost-ack&ask=effects\nseed=7&preset=race&ask=effects";
    let mut state = load_measured(&own_query(lines));
    let id = app::sequence_id(state.page.steps.as_deref().unwrap());
    assert!(id.starts_with("own-") && id.len() == 12, "{id}");
    let other = load(&own_query("seed=8&preset=race"));
    assert_ne!(app::sequence_id(other.page.steps.as_deref().unwrap()), id);
    let own_step = |step| Report::Step {
        lesson: "own",
        id: id.clone(),
        step,
        steps: Some(2),
    };
    let begun = Report::Start {
        what: Started::Own,
        id: id.clone(),
        attempt: 1,
        seed: None,
        steps: Some(2),
    };
    assert_eq!(app::report_on_load(&mut state), [begun, own_step(1)]);
    let mut answered = Vec::new();
    for index in 0..2 {
        if index == 1 {
            let effects = app::update(&mut state, Msg::Own(OwnMsg::Open(1)));
            assert_eq!(effects.reports, [own_step(2)]);
            support::ran(&mut state);
        }
        let choices = app::own_step_view(&state)
            .unwrap()
            .question
            .unwrap()
            .choices;
        let value = state.own_answer.unwrap().1;
        let right = choices
            .iter()
            .position(|c| *c == value.to_string())
            .unwrap();
        let effects = app::update(&mut state, Msg::Own(OwnMsg::Answer(right)));
        answered.push(app::OwnAnswer {
            step: index + 1,
            answer: right,
            value,
            correct: true,
        });
        let prediction = Report::Prediction {
            lesson: "own",
            id: id.clone(),
            step: index + 1,
            answer: right,
            value: app::Picked::Count(value),
            choice: value.to_string(),
            correct: true,
            steps: Some(2),
        };
        let summary = Report::Summary {
            id: id.clone(),
            steps: 2,
            asked: 2,
            right: 2,
            answers: answered.clone(),
        };
        match index {
            0 => assert_eq!(effects.reports, [prediction]),
            _ => assert_eq!(effects.reports, [prediction, summary]),
        }
    }
}

#[test]
fn report_may_name_the_course_pages_origin_and_then_posts_there_only() {
    let state = load("lesson=a&step=1&report=https%3A%2F%2Fcourse.example");
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    assert!(state.page.report);
    assert_eq!(
        app::report_target(&state, "https://elsewhere.example/page"),
        "https://course.example"
    );
    assert_eq!(
        state.page.report_origin.as_deref(),
        Some("https://course.example")
    );
    let again = load(&state.to_query());
    assert_eq!(
        again.page.report_origin, state.page.report_origin,
        "round trip"
    );
    // As the browser gives the link (`location.search`), with the origin unencoded.
    let port = load("?seed=1&report=http://127.0.0.1:8080");
    assert_eq!(
        port.page.report_origin.as_deref(),
        Some("http://127.0.0.1:8080")
    );
    // With `parent`, the referrer's origin, or any when the course page sent none.
    let parent = load("lesson=a&report=parent");
    let target = |referrer| app::report_target(&parent, referrer);
    assert_eq!(
        target("https://lms.example:8443/course/view?id=2"),
        "https://lms.example:8443"
    );
    assert_eq!(target(""), "*");
    for bad in [
        "https://course.example/",
        "https://course.example/path",
        "ftp://course.example",
        "javascript:alert(1)",
        "https://",
        "https://user@course.example",
        "https://course.example:99999",
        "*",
        "all",
    ] {
        let state = load(&format!(
            "seed=1&report={}",
            idemlab_core::scenario::codec::percent_encode(bad)
        ));
        assert!(!state.page.report, "{bad}");
        let error = state.errors[0].to_string();
        assert!(
            error.contains("parent, or the course page's origin: http(s)://host"),
            "{bad}: {error}"
        );
    }
}

#[test]
fn an_origin_is_a_scheme_a_host_and_a_port_at_most() {
    assert_eq!(
        app::origin_of("https://a.example/x?y#z"),
        Some("https://a.example")
    );
    assert_eq!(
        app::origin_of("http://[::1]:8000/"),
        Some("http://[::1]:8000")
    );
    assert_eq!(app::origin_of("http://localhost"), Some("http://localhost"));
    for none in [
        "",
        "null",
        "file:///tmp/x.html",
        "https://:80",
        "https://a b.example",
    ] {
        assert_eq!(app::origin_of(none), None, "{none}");
    }
}

#[test]
fn the_embed_dialog_can_send_results_to_the_course_page() {
    let state = load("lesson=a&step=3");
    let query = app::embed_query(&state, vec![], None, true);
    assert!(query.contains("&report=parent"), "{query}");
    assert!(!app::embed_query(&state, vec![], None, false).contains("report="));
    // The box decides, on a page whose link reports already too (the dialog opens it ticked).
    let reporting = load("lesson=a&step=3&report=parent");
    assert!(!app::embed_query(&reporting, vec![], None, false).contains("report="));
    assert!(reporting.page.report);
}

/// The messages' JSON is written by a small writer of the page's own, not serde; serde_json reads
/// each back and writes it again to the same bytes (its maps sort their keys, as the writer does),
/// for every kind of message and for strings that need escapes.
#[test]
fn every_message_is_the_json_serde_json_writes_for_it() {
    let hostile = "a \"quoted\" \\ line\nbreak\ttab\u{1}\u{7f} é";
    let reports = [
        start(Started::Check, hostile, 2, Some(u64::MAX)),
        Report::Start {
            what: Started::Own,
            id: "own-1".into(),
            attempt: 1,
            seed: None,
            steps: Some(3),
        },
        step("b", 4),
        Report::Prediction {
            lesson: "a",
            id: "a".into(),
            step: 2,
            answer: 1,
            value: app::Picked::Words(hostile.into()),
            choice: hostile.into(),
            correct: false,
            steps: None,
        },
        Report::Quiz {
            lesson: "c",
            seed: 6,
            attempt: 3,
            score: 1,
            total: 2,
            mastered: false,
            questions: vec![
                app::Answered {
                    kind: "charges-for-order",
                    answer: 2,
                    right: 2,
                    keys: None,
                    correct: true,
                },
                app::Answered {
                    kind: "which-run",
                    answer: 0,
                    right: 1,
                    keys: Some(("a".into(), hostile.into())),
                    correct: false,
                },
            ],
        },
        Report::Summary {
            id: "own-2".into(),
            steps: 2,
            asked: 1,
            right: 1,
            answers: vec![app::OwnAnswer {
                step: 1,
                answer: 0,
                value: 3,
                correct: true,
            }],
        },
    ];
    let mut texts: Vec<String> = reports.iter().map(|r| r.json(hostile)).collect();
    texts.push(app::height_json(480));
    texts.push(app::frame_resize_json(480));
    for text in texts {
        let value: serde_json::Value = serde_json::from_str(&text).expect("the message is JSON");
        assert_eq!(serde_json::to_string(&value).unwrap(), text);
    }
}
