//! Reading stored progress keeps every line it can: a record corrupted in one line (a char
//! deleted, garbage inserted, the line repeated, trailing spaces, cut short) keeps every other
//! line's data, and the note names what was left out. `TEST_MODE=long` runs more cases.

use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::{LessonProgress, Progress, VERSION};
use idemlab_course::quiz::QUESTIONS;
use proptest::prelude::*;

fn cases() -> ProptestConfig {
    let long = std::env::var("TEST_MODE").is_ok_and(|mode| mode == "long");
    ProptestConfig {
        cases: if long { 25_600 } else { 256 },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A lesson's line as the page writes it, and what it records.
fn lesson_line() -> impl Strategy<Value = LessonProgress> {
    let answer = prop::option::of(0..4u32);
    let answers = prop::collection::vec(answer, 0..=QUESTIONS);
    (any::<bool>(), 0..=QUESTIONS as u32, any::<u64>(), answers).prop_map(
        |(mastered, best, seed, answers)| LessonProgress {
            mastered,
            best,
            quiz: seed.to_string(),
            answers,
        },
    )
}

fn line_of(id: &str, lesson: &LessonProgress) -> String {
    let answers: Vec<String> = (lesson.answers.iter())
        .map(|a| a.map_or_else(|| "-".into(), |a| a.to_string()))
        .collect();
    let mastered = u8::from(lesson.mastered);
    let (best, quiz) = (lesson.best, &lesson.quiz);
    format!(
        "lesson={id} mastered={mastered} best={best} quiz={quiz} answers={}",
        answers.join(",")
    )
}

#[derive(Clone, Debug)]
enum Corrupt {
    Delete(usize),
    Insert(usize, String),
    Repeat,
    TrailingSpaces(usize),
    CutLine(usize),
    /// The record ends inside this line: the lines after it are gone too.
    CutRecord(usize),
}

fn corrupt() -> impl Strategy<Value = Corrupt> {
    let garbage = "[ -~\n]{1,8}";
    prop_oneof![
        any::<usize>().prop_map(Corrupt::Delete),
        (any::<usize>(), garbage).prop_map(|(at, text)| Corrupt::Insert(at, text)),
        Just(Corrupt::Repeat),
        (1..4usize).prop_map(Corrupt::TrailingSpaces),
        any::<usize>().prop_map(Corrupt::CutLine),
        any::<usize>().prop_map(Corrupt::CutRecord),
    ]
}

/// The record with line `at` (counted from 1, after the header) corrupted.
fn corrupted(lines: &[String], at: usize, how: &Corrupt) -> String {
    let mut out = vec![format!("idemlab-progress {VERSION}")];
    for (i, line) in lines.iter().enumerate() {
        if i + 1 != at {
            out.push(line.clone());
            continue;
        }
        let cut = |n: usize| line[..n % (line.len() + 1)].to_string();
        match how {
            Corrupt::Delete(n) => {
                let n = n % line.len();
                out.push(format!("{}{}", &line[..n], &line[n + 1..]));
            }
            Corrupt::Insert(n, text) => {
                let n = n % (line.len() + 1);
                out.push(format!("{}{text}{}", &line[..n], &line[n..]));
            }
            Corrupt::Repeat => out.extend([line.clone(), line.clone()]),
            Corrupt::TrailingSpaces(n) => out.push(format!("{line}{}", " ".repeat(*n))),
            Corrupt::CutLine(n) => out.push(cut(*n)),
            Corrupt::CutRecord(n) => return out.join("\n") + "\n" + &cut(*n),
        }
    }
    out.join("\n") + "\n"
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn every_line_a_corruption_did_not_touch_survives(
        lessons in prop::collection::vec(lesson_line(), LESSONS.len()),
        shortcuts_off in any::<bool>(),
        at in 1..=LESSONS.len() + 1,
        how in corrupt(),
    ) {
        let mut lines: Vec<String> =
            LESSONS.iter().zip(&lessons).map(|(l, p)| line_of(l.id, p)).collect();
        if shortcuts_off {
            lines.push("shortcuts=off".into());
        }
        let text = corrupted(&lines, at, &how);
        let (read, note) = Progress::parse(Some(&text));
        let cut_after = matches!(how, Corrupt::CutRecord(_));
        let untouched = |i: usize| i + 1 != at && !(cut_after && i + 1 > at);
        for (i, (lesson, expected)) in LESSONS.iter().zip(&lessons).enumerate() {
            if untouched(i) {
                prop_assert_eq!(read.lesson(lesson.id), Some(expected), "{}\n{:?}", text, note);
            }
        }
        if shortcuts_off && untouched(LESSONS.len()) {
            prop_assert!(read.shortcuts_off, "{}", text);
        }
        prop_assert!(!read.keep_stored);
    }
}

#[test]
fn a_line_left_out_is_named_and_the_rest_kept() {
    let text = format!(
        "idemlab-progress {VERSION}  \nlesson=a mastered=1 best=4 quiz=7 answers=0,1,2,3 \nlesson=b mastered=yes best=1 quiz=8 answers=\nshortcuts=off\n"
    );
    let (read, note) = Progress::parse(Some(&text));
    assert!(read.lesson("a").is_some_and(|a| a.mastered) && read.shortcuts_off);
    assert_eq!(read.lesson("b"), None);
    expect_test::expect!["Saved quiz progress had lines that could not be read, so they were left out and the rest kept: line 3 (`lesson=b mastered=yes be…`)."]
        .assert_eq(&note.unwrap());
}

#[test]
fn a_lesson_given_twice_keeps_the_line_with_more_progress_and_names_the_other() {
    let text = format!(
        "idemlab-progress {VERSION}\nlesson=a mastered=0 best=2 quiz=1 answers=\nlesson=a mastered=1 best=1 quiz=2 answers=\nlesson=a mastered=1 best=1 quiz=3 answers=\n"
    );
    let (read, note) = Progress::parse(Some(&text));
    assert_eq!(read.lesson("a").unwrap().quiz, "2");
    let note = note.unwrap();
    assert!(
        note.contains("line 2 (") && note.contains("line 4 ("),
        "{note}"
    );
    assert!(!note.contains("line 3 ("), "{note}");
}

#[test]
fn a_newer_record_is_kept_for_its_version_and_an_older_one_starts_afresh() {
    let newer = format!(
        "idemlab-progress {}\nlesson=a mastered=1 best=4 quiz=7 answers=\n",
        VERSION + 1
    );
    let (read, note) = Progress::parse(Some(&newer));
    assert!(read.keep_stored && read.lesson("a").is_none());
    assert!(note.unwrap().contains("newer version"));
    let older = format!(
        "idemlab-progress {}\nlesson=a mastered=1 best=4 quiz=7 answers=\n",
        VERSION - 1
    );
    let (read, note) = Progress::parse(Some(&older));
    assert_eq!(read, Progress::new());
    assert!(note.unwrap().contains("older version"));
}
