//! The command line as a shell user meets it: `rulebook list` (aligned,
//! with kind, players and options), `rulebook completions SHELL` and
//! `rulebook man`, generated from the same clap definitions as the parser,
//! so every command is in them; the bash completions are run in a real bash.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::run;
use std::process::Command;

/// The commands `rulebook --help` lists (without `help`).
fn commands() -> Vec<String> {
    let (code, out, _) = run(&["--help"]);
    assert_eq!(code, 0);
    let names: Vec<String> = out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|n| n != "help")
        .collect();
    assert!(names.len() > 10, "{out}");
    names
}

/// Runs the bash completion function for the words typed so far and
/// returns what bash would offer.
fn bash_complete(script: &str, words: &[&str]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("rulebook-shell-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rulebook.bash");
    std::fs::write(&file, script).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let prev = if cword >= 1 { words[cword - 1] } else { "" };
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={cword}; _rulebook rulebook '{}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file.display(),
        quoted.join(" "),
        words[cword],
    );
    let output = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn bash_completions_offer_commands_and_shells() {
    let (code, script, err) = run(&["completions", "bash"]);
    assert_eq!(code, 0, "{err}");
    let check = Command::new("bash")
        .arg("-n")
        .arg("-c")
        .arg(&script)
        .output()
        .unwrap();
    assert!(check.status.success(), "bash -n failed");
    let all = bash_complete(&script, &["rulebook", ""]);
    for c in commands() {
        assert!(all.contains(&c), "`{c}` not offered: {all:?}");
    }
    assert_eq!(bash_complete(&script, &["rulebook", "sim"]), ["simulate"]);
    let shells = bash_complete(&script, &["rulebook", "completions", ""]);
    for s in ["bash", "zsh", "fish"] {
        assert!(shells.iter().any(|x| x == s), "{shells:?}");
    }
    let flags = bash_complete(&script, &["rulebook", "play", "--re"]);
    assert!(flags.iter().any(|f| f == "--record"), "{flags:?}");
}

#[test]
fn zsh_and_fish_completions_name_every_command() {
    let (code, zsh, _) = run(&["completions", "zsh"]);
    assert_eq!(code, 0);
    assert!(zsh.starts_with("#compdef rulebook"), "{zsh}");
    let (code, fish, _) = run(&["completions", "fish"]);
    assert_eq!(code, 0);
    for c in commands() {
        assert!(zsh.contains(&format!("'{c}:")), "zsh lacks {c}");
        assert!(
            fish.contains(&format!("-a \"{c}\"")),
            "fish lacks {c}:\n{fish}"
        );
    }
}

#[test]
fn completions_of_an_unknown_shell_is_a_usage_error() {
    let (code, out, err) = run(&["completions", "tcsh"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("bash, zsh, fish"), "{err}");
}

#[test]
fn man_page_lists_every_command_and_each_has_its_page() {
    let (code, page, _) = run(&["man"]);
    assert_eq!(code, 0);
    assert!(page.contains(".TH rulebook 1"), "{page}");
    for c in commands() {
        let escaped = c.replace('-', "\\-");
        assert!(
            page.contains(&format!("rulebook\\-{escaped}(1)")),
            "rulebook-{c}(1) not listed"
        );
        let (code, sub, err) = run(&["man", &c]);
        assert_eq!(code, 0, "{err}");
        assert!(
            sub.contains(&format!(".TH rulebook\\-{escaped} 1"))
                || sub.contains(&format!(".TH rulebook-{c} 1")),
            "page of {c}:\n{sub}"
        );
        assert!(sub.contains(&format!("\\fBrulebook {}", escaped)), "{sub}");
    }
    let (code, _, err) = run(&["man", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("`nope` is not a command"), "{err}");
}

#[test]
fn list_shows_kind_players_and_options_aligned() {
    let (code, out, err) = run(&["list"]);
    assert_eq!(code, 0, "{err}");
    insta::assert_snapshot!(out);
    // Every row's columns start where the header's do.
    let header = out.lines().next().unwrap();
    let kind_at = header.find("kind").unwrap();
    let players_at = header.find("players").unwrap();
    for line in out.lines().skip(1) {
        assert_eq!(&line[kind_at - 2..kind_at], "  ", "{line}");
        assert!(
            line[kind_at..].starts_with("board") || line[kind_at..].starts_with("race"),
            "{line}"
        );
        assert_eq!(&line[players_at - 2..players_at], "  ", "{line}");
    }
}
