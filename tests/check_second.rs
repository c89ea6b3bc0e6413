//! The second evening's checks (issue 31): a variant's own description
//! (W007), an inherited option that a variant makes meaningless (W008) and
//! `remove option`, which drops it; the language server's hover on a keyword
//! says what its statement means.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{ok, run};
use rulebook::load::{check_source, BundledLoader};
use rulebook::source::Source;

/// `check`'s report of a house rule named `house.rules` that builds on the
/// bundled games, and the option names it offers.
fn check_house(text: &str) -> (String, Vec<String>) {
    let source = Source {
        name: "house.rules".into(),
        text: text.into(),
    };
    let checked = check_source(source, &BundledLoader, &[]);
    let names = checked.options.iter().map(|(n, _)| n.clone()).collect();
    (checked.render(), names)
}

#[test]
fn a_variant_without_its_own_description_is_warned_with_a_hint() {
    let (report, _) = check_house("extends \"draughts\"\ngame \"House\"\ncapture free\n");
    insta::assert_snapshot!(report);
    assert!(report.contains("warning[W007]"), "{report}");
    // Its own description: no warning, and `rules` shows it.
    let (report, _) = check_house(
        "extends \"draughts\"\ngame \"House\"\ndescription \"Draughts with free capture.\"\ncapture free\n",
    );
    assert_eq!(report, "");
    // The bundled variant that had none now says what it changes.
    let rules = ok(&["rules", "variants/slow-and-steady-both-pieces"]);
    assert!(
        rules.contains("bring both pieces to 100"),
        "its own description:\n{rules}"
    );
    assert!(!rules.contains("the first piece to reach 100"), "{rules}");
}

/// A house rule of the travel-set draughts with kings of its own: the
/// `kings` option it inherits sets a `piece king` that this file restates.
const OWN_KINGS: &str = "extends \"draughts\"
game \"Short kings\"
description \"Draughts whose kings move one square.\"
piece king \"King\" letter K {
  step diagonal
  jump short diagonal
}
";

#[test]
fn an_inherited_option_that_changes_nothing_is_warned_and_can_be_removed() {
    let (report, options) = check_house(OWN_KINGS);
    insta::assert_snapshot!(report);
    assert!(report.contains("warning[W008]"), "{report}");
    assert_eq!(options, ["kings"]);
    // Dropped: no warning, not offered, not accepted.
    let dropped = OWN_KINGS.replace("piece king", "remove option kings\npiece king");
    let (report, options) = check_house(&dropped);
    assert_eq!(report, "");
    assert!(options.is_empty(), "{options:?}");
    // An option that still changes something is not warned about.
    let (report, _) = check_house(
        "extends \"draughts\"\ngame \"House\"\ndescription \"Draughts with free capture.\"\ncapture free\n",
    );
    assert!(!report.contains("W008"), "{report}");
    // Removing an option nobody declared is an error with a suggestion.
    let (report, _) =
        check_house(&OWN_KINGS.replace("piece king", "remove option king\npiece king"));
    assert!(
        report.contains("error[E051]: no option `king` to remove"),
        "{report}"
    );
    assert!(report.contains("did you mean `kings`?"), "{report}");
    // `remove option` is not for a `when` block.
    let (report, _) = check_house(&format!(
        "{OWN_KINGS}when kings = short {{\n  remove option kings\n}}\n"
    ));
    assert!(report.contains("error[E001]"), "{report}");
}

#[test]
fn english_checkers_offers_no_kings_option() {
    let rules = ok(&["rules", "variants/english"]);
    assert!(!rules.contains("kings="), "{rules}");
    assert!(!rules.contains("options:"), "{rules}");
    // The travel-set game still has it.
    assert!(ok(&["rules", "draughts"]).contains("--option kings=flying|short"));
    let (code, _, err) = run(&[
        "check",
        "games/variants/english.rules",
        "--option",
        "kings=short",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown option `kings`"), "{err}");
    let offered = ok(&[
        "complete",
        "--line",
        "rulebook play variants/english --option ",
    ]);
    assert_eq!(offered.trim(), "", "completions");
    let offered = ok(&["complete", "--line", "rulebook play draughts --option "]);
    assert_eq!(
        offered.lines().collect::<Vec<_>>(),
        ["kings=flying", "kings=short"]
    );
    // With and without the option gone, the game is the same: kings that
    // step one square.
    let english = rulebook::load::check(&BundledLoader, "variants/english", &[])
        .into_board()
        .unwrap()
        .into_game();
    assert!(english.kinds[1].moves[0].slide.is_empty());
    assert_eq!(english.kinds[1].moves[0].step.len(), 4);
    // Every bundled game checks with no warning (tests/diagnostics.rs too).
    for (name, _) in rulebook::bundled::GAMES {
        let checked = rulebook::load::check(&BundledLoader, name, &[]);
        assert_eq!(checked.render(), "", "{name}");
    }
}

/// The hover at the `nth` (from 0) occurrence of `needle` in `text`,
/// `skip` bytes into it.
fn hover_at(
    cx: &rulebook::lsp::analysis::Context<'_>,
    needle: &str,
    nth: usize,
    skip: usize,
) -> String {
    let at = cx
        .text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} in the file"))
        .0;
    let (md, _) = cx
        .hover(at + skip)
        .unwrap_or_else(|| panic!("a hover on `{needle}`"));
    format!("## `{needle}` + {skip}\n{md}\n")
}

#[test]
fn hover_on_a_keyword_says_what_its_statement_means() {
    use rulebook::lsp::analysis::{outline, Context};
    use rulebook::lsp::docs::Grammar;
    let path = std::path::Path::new("games/draughts.rules");
    let text = std::fs::read_to_string(path).unwrap();
    let own = outline(&text);
    let grammar = Grammar::load();
    let cx = Context {
        path,
        text: &text,
        outline: &own,
        chain: &[],
        game: None,
        grammar: &grammar,
    };
    let mut all = String::new();
    for (needle, nth, skip) in [
        ("capture compulsory", 0, 0),
        ("capture compulsory", 0, 10),
        ("capture most", 0, 9),
        ("capture removes at-end", 0, 0),
        ("capture removes at-end", 0, 9),
        ("capture removes at-end", 0, 17),
        ("chain must-continue", 0, 7),
        ("crown mid-chain stay", 0, 17),
        ("long-landing any", 0, 13),
        // The same word in a draw rule is the event that resets its count.
        ("without capture", 0, 9),
        ("end no-pieces lose", 0, 5),
    ] {
        all.push_str(&hover_at(&cx, needle, nth, skip));
    }
    insta::assert_snapshot!(all);
    // `capture` at the start of `capture compulsory` is not the event of a
    // draw rule, and `compulsory` says what the statement means.
    let capture = hover_at(&cx, "capture compulsory", 0, 0);
    assert!(!capture.contains("resets a draw counter"), "{capture}");
    assert!(capture.contains("must capture"), "{capture}");
    let event = hover_at(&cx, "without capture", 0, 9);
    assert!(event.contains("resets a draw counter"), "{event}");
    // A house rule's `capture optional`: what `optional` means there.
    let house = "capture optional\n";
    let own = outline(house);
    let cx = Context {
        text: house,
        outline: &own,
        ..cx
    };
    let optional = hover_at(&cx, "optional", 0, 2);
    assert!(
        optional.contains("`capture optional`: a side may make a plain move"),
        "{optional}"
    );
    assert!(!optional.contains("draw counter"), "{optional}");
}
