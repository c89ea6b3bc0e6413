//! Sides: how many, their letters, and who moves first.

use super::merge::Merged;
use crate::ast::Name;
use crate::diagnostic::{Code, Diagnostic};
use crate::source::Span;
use crate::suggest::unknown_help;
use crate::vocab::board::{SideId, SideInfo};

/// The most sides a game may have.
pub const MAX_SIDES: usize = 8;

/// The checked sides.
#[derive(Clone, Debug)]
pub struct Sides {
    /// In seat order.
    pub list: Vec<SideInfo>,
    /// Where each is declared.
    pub spans: Vec<Span>,
    /// Who moves first.
    pub first: SideId,
}

impl Default for Sides {
    fn default() -> Sides {
        Sides {
            list: Vec::new(),
            spans: Vec::new(),
            first: SideId(0),
        }
    }
}

impl Sides {
    /// A side by identifier.
    pub fn find(&self, id: &str) -> Option<SideId> {
        self.list
            .iter()
            .position(|s| s.id == id)
            .and_then(|i| u8::try_from(i).ok())
            .map(SideId)
    }

    /// A side by identifier, or an "unknown side" diagnostic.
    pub fn lookup(&self, name: &Name, diags: &mut Vec<Diagnostic>) -> Option<SideId> {
        let found = self.find(&name.node);
        if found.is_none() {
            diags.push(unknown_side(name, self.list.iter().map(|s| s.id.as_str())));
        }
        found
    }

    /// Side ids in seat order.
    pub fn ids(&self) -> impl Iterator<Item = SideId> + '_ {
        (0..self.list.len()).filter_map(|i| u8::try_from(i).ok().map(SideId))
    }
}

/// `unknown side `x``.
pub fn unknown_side<'a>(name: &Name, known: impl Iterator<Item = &'a str> + Clone) -> Diagnostic {
    Diagnostic::new(Code::UnknownSide, format!("unknown side `{}`", name.node))
        .primary(name.span, "no side of this name")
        .help(unknown_help(&name.node, known, "declare it with `side`"))
}

/// Checks the sides.
pub fn check_sides(merged: &Merged, diags: &mut Vec<Diagnostic>) -> Sides {
    let mut sides = Sides::default();
    if merged.sides.is_empty() {
        let mut d = Diagnostic::new(Code::NoSides, "the game has no sides")
            .help("declare at least one, such as `side white \"White\" forward north`");
        if let Some(anchor) = merged.anchor {
            d = d.primary(anchor, "this game needs a side");
        }
        diags.push(d);
    }
    if let Some(extra) = merged.sides.get(MAX_SIDES) {
        diags.push(
            Diagnostic::new(
                Code::TooManySides,
                format!(
                    "the game has {} sides, more than {MAX_SIDES}",
                    merged.sides.len()
                ),
            )
            .primary(extra.node.id.span, "one side too many")
            .help(format!("a game has 1 to {MAX_SIDES} sides")),
        );
    }
    for side in &merged.sides {
        let decl = &side.node;
        let letter = decl
            .letter
            .as_ref()
            .map(|l| l.node)
            .unwrap_or_else(|| default_letter(&decl.id.node));
        if let Some(other) = sides.list.iter().position(|s| s.letter == letter) {
            let at = decl.letter.as_ref().map_or(decl.id.span, |l| l.span);
            let mut d = Diagnostic::new(
                Code::DuplicateLetter,
                format!(
                    "sides `{}` and `{}` have the same letter `{letter}`",
                    sides.list.get(other).map_or("", |s| s.id.as_str()),
                    decl.id.node
                ),
            )
            .primary(at, format!("letter `{letter}`"));
            if let Some(span) = sides.spans.get(other) {
                d = d.secondary(*span, "the other side");
            }
            diags.push(d.help("give one of them another letter with `letter L`"));
        }
        sides.list.push(SideInfo {
            id: decl.id.node.clone(),
            name: decl.name.node.clone(),
            letter,
            forward: decl.forward.node,
        });
        sides.spans.push(decl.id.span);
    }
    if let Some(first) = &merged.first {
        if let Some(id) = sides.lookup(first, diags) {
            sides.first = id;
        }
    }
    sides
}

/// The first letter of an identifier, upper-cased.
pub fn default_letter(id: &str) -> char {
    id.chars().next().map_or('?', |c| c.to_ascii_uppercase())
}
