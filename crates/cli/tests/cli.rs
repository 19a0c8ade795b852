//! The `idemlab` binary as a user meets it (issue 10): a sweep's totals whatever the thread
//! count, Ctrl-C during a sweep, a reader that goes away, and seed ranges at the top.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

use expect_test::{expect, Expect};
use idemlab_core::scenario::decode;
use idemlab_lab::sweep::{sweep, SeedRange};

fn idemlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_idemlab"))
}

fn output(args: &[&str]) -> Output {
    idemlab().args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn sweep_totals_do_not_depend_on_the_thread_count() {
    let sweep_on = |threads: &str| {
        let args = ["sweep", "preset=race", "--seeds", "3..=700", "--quiet"];
        let out = output(&[&args[..], &["--threads", threads]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let one = sweep_on("1");
    assert!(one.contains("\"runs\": 698"), "{one}");
    for threads in ["2", "3", "7"] {
        assert_eq!(sweep_on(threads), one, "--threads {threads}");
    }
}

#[test]
fn ctrl_c_prints_the_totals_of_the_seeds_finished_without_a_gap() {
    let mut child = idemlab()
        .args([
            "sweep",
            "preset=lost-ack&orders=50",
            "--seeds",
            "10..100000000",
        ])
        .args(["--threads", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Wait for the first progress line, so that some seeds have finished.
    let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("a progress line");
    assert!(line.starts_with("sweep: "), "{line}");
    let pid = child.id().to_string();
    let killed = Command::new("kill").args(["-INT", &pid]).status();
    assert!(killed.expect("kill runs").success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).expect("stderr");
    let out = child.wait_with_output().expect("the sweep ends");
    assert_eq!(out.status.code(), Some(130), "{rest}");
    assert!(rest.contains("stopped by Ctrl-C"), "{rest}");
    // The JSON names the seeds it covers, and a sweep of exactly those gives the same totals.
    let json = text(&out.stdout);
    let seeds = json
        .lines()
        .find_map(|l| l.trim().strip_prefix("\"seeds\": \""))
        .and_then(|l| l.strip_suffix("\","))
        .expect("the seeds line");
    let range = SeedRange::parse(seeds).expect("a range the CLI accepts");
    assert_eq!(range.first, 10);
    let again = output(&[
        "sweep",
        "preset=lost-ack&orders=50",
        "--seeds",
        seeds,
        "--quiet",
    ]);
    assert_eq!(text(&again.stdout), json);
}

/// Runs the binary with a stdout whose reader has already gone.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let child = idemlab()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.wait_with_output().expect("it ends")
}

#[test]
fn every_command_ends_quietly_when_its_reader_goes_away() {
    let commands: [&[&str]; 13] = [
        &["contracts", "preset=race", "--seeds", "0..5"],
        &["contracts", "--list"],
        &["keys"],
        &["keys", "--markdown"],
        &["presets"],
        &["presets", "--markdown"],
        &["run", "preset=race"],
        &["run", "preset=race", "--text"],
        &["run", "preset=race", "--trace"],
        &["sweep", "preset=race", "--seeds", "0..20"],
        &["sweep", "preset=race", "--seeds", "0..20", "--quiet"],
        &["--help"],
        &["--version"],
    ];
    for args in commands {
        let out = with_closed_stdout(args);
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

fn check_seeds(text: &str, expect: Expect) {
    let shown = match SeedRange::parse(text) {
        Ok(range) => format!("ok {range} ({} seeds)", range.count),
        Err(message) => format!("error: {message}"),
    };
    expect.assert_eq(&shown);
}

#[test]
fn seed_ranges_reach_the_largest_seed_and_empty_ones_say_what_is_allowed() {
    check_seeds(
        "18446744073709551615..=18446744073709551615",
        expect!["ok 18446744073709551615..=18446744073709551615 (1 seeds)"],
    );
    check_seeds(
        "18446744073709551610..18446744073709551615",
        expect!["ok 18446744073709551610..=18446744073709551614 (5 seeds)"],
    );
    check_seeds("5..=5", expect!["ok 5..=5 (1 seeds)"]);
    check_seeds(
        "5..5",
        expect!["error: the range is empty: A..B needs B > A (A..B excludes B, A..=B includes it)"],
    );
    check_seeds(
        "6..=5",
        expect![
            "error: the range is empty: A..=B needs B >= A (A..B excludes B, A..=B includes it)"
        ],
    );
    check_seeds(
        "0..=18446744073709551615",
        expect!["error: 18446744073709551616 seeds: a sweep runs at most 100000000"],
    );
    check_seeds(
        "7",
        expect!["error: not a range: write A..B (B excluded) or A..=B (B included) with whole numbers 0..=18446744073709551615"],
    );
    check_seeds(
        "a..=18446744073709551616",
        expect![[
            r#"error: "a" is not a seed: write A..B (B excluded) or A..=B (B included) with whole numbers 0..=18446744073709551615"#
        ]],
    );
}

#[test]
fn the_cli_names_the_flag_of_a_bad_seed_range() {
    let out = output(&["sweep", "--seeds", "5..5"]);
    assert_eq!(out.status.code(), Some(2));
    expect![[r#"
        idemlab: --seeds "5..5": the range is empty: A..B needs B > A (A..B excludes B, A..=B includes it)
    "#]]
    .assert_eq(&text(&out.stderr));
}

#[test]
fn a_sweep_from_the_largest_seed_runs_it() {
    let scenario = decode("preset=lost-ack").expect("decodes").scenario;
    assert_eq!(sweep(&scenario, u64::MAX, 1_000).runs, 1);
    assert_eq!(sweep(&scenario, u64::MAX - 2, 1_000).runs, 3);
    assert_eq!(sweep(&scenario, 7, 0).runs, 0);
}

#[test]
fn run_sql_lists_the_tables_then_one_line_per_statement_and_refuses_other_outputs() {
    let out = output(&["run", "seed=1&preset=race&dedup=atomic", "--sql"]);
    assert!(out.status.success());
    let listing = text(&out.stdout);
    let (schema, rows) = listing
        .split_once("-- ms\trequest\ttxn\treturns\tstatement\n")
        .expect("a header line between the tables and the statements");
    assert!(schema.contains("CREATE TABLE idempotency_keys (key text PRIMARY KEY"));
    let rows: Vec<&str> = rows.lines().collect();
    assert!(
        rows.iter().all(|row| row.split('\t').count() == 5),
        "{rows:?}"
    );
    assert!(rows
        .iter()
        .any(|row| row.contains("\tblocks\tINSERT INTO idempotency_keys")));
    for other in ["--text", "--trace"] {
        let out = output(&["run", "preset=race", "--sql", other]);
        assert_eq!(out.status.code(), Some(2), "--sql with {other}");
    }
}

#[test]
fn run_of_a_compare_link_says_it_is_run_a_and_how_to_run_b() {
    let url = "http://127.0.0.1:8080/?seed=1&loss_resp=0.2&compare=dedup%3Datomic";
    let out = output(&["run", url]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(
        said.contains("this is run A; the link's compare= makes run B, which `idemlab run 'seed=1&dedup=atomic&loss_resp=0.2'` runs"),
        "{said}"
    );
    // Stdout is A's report alone, as without compare=.
    let plain = output(&["run", "seed=1&loss_resp=0.2"]);
    assert_eq!(text(&out.stdout), text(&plain.stdout));
    assert!(text(&plain.stderr).is_empty(), "{}", text(&plain.stderr));
}

/// A compare link whose runs would hold more events than the page does runs A as the page
/// does, cut to its share, says so, and names B with its share too.
#[test]
fn run_of_a_heavy_compare_link_runs_as_its_share() {
    let link = "seed=3&orders=10000&clients=16&retries=20&timeout_ms=1&backoff_ms=0&loss_req=0.5&loss_resp=0.5&dedup=atomic&rerun_ms=0&provider_ms=0..60000&events_max=1000000&compare=seed%3D4";
    let out = output(&["run", link]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert!(
        said.contains("idemlab: Run A stops at 500,000 events: a compare link's two runs share 1,000,000 (events_max)."),
        "{said}"
    );
    assert!(
        said.contains("makes run B, which `idemlab run 'seed=4&"),
        "{said}"
    );
    assert!(said.contains("&events_max=500000'` runs"), "{said}");
    assert!(
        said.contains("idemlab: Run B stops at 500,000 events"),
        "{said}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["scenario"]
        .as_str()
        .unwrap()
        .ends_with("&events_max=500000"));
}

/// A lesson link with no scenario key runs the step's own scenario, as the page opens it,
/// and says so; one with a key of its own keeps it.
#[test]
fn run_and_svg_of_a_lesson_link_use_the_steps_own_run() {
    let step = &idemlab_course::lessons::LESSONS[0].steps[3];
    let link = "http://127.0.0.1:8080/?lesson=a&step=4";
    for verb in ["run", "svg"] {
        let out = output(&[verb, link]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("the link opens a lesson step's own run"));
        assert_eq!(text(&out.stdout), text(&output(&[verb, step.query]).stdout));
    }
    let own = output(&["run", "lesson=a&step=4&seed=2"]);
    assert_eq!(text(&own.stdout), text(&output(&["run", "seed=2"]).stdout));
    // A page key the page refuses is an error here too, not a silent default run.
    let bad = output(&["run", "lesson=z"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("`lesson=z` is not valid"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn first_writes_every_entrys_view_and_names_a_folder_it_cannot_write() {
    let dir = std::env::temp_dir().join(format!("idemlab-first-{}", std::process::id()));
    let out = output(&["first", dir.to_str().expect("a UTF-8 temp path")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let a4 = std::fs::read_to_string(dir.join("a-4.json")).expect("a-4.json");
    assert!(a4.contains("\"heading\":\"Step 4 of 7: "), "{a4}");
    let bare = std::fs::read_to_string(dir.join("bare.svg")).expect("bare.svg");
    assert_eq!(
        bare,
        text(&output(&["svg", ""]).stdout),
        "the bare page's picture is `idemlab svg`'s"
    );
    std::fs::remove_dir_all(&dir).ok();
    // A file where the folder should be: an error naming it, not a panic.
    let file = std::env::temp_dir().join(format!("idemlab-first-file-{}", std::process::id()));
    std::fs::write(&file, "").expect("a temp file");
    let out = output(&["first", file.to_str().expect("a UTF-8 temp path")]);
    std::fs::remove_file(&file).ok();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("idemlab-first-file-"),
        "{}",
        text(&out.stderr)
    );
}
