//! The colours of seats and sides in pictures: a seat named after a colour
//! (`red`, `Blue`, `dark-green` ends in a colour word) is drawn in that
//! colour; the others get distinct colours that no named seat of the game
//! uses. The SVG pictures take the hex value, a terminal the ANSI codes.

/// A colour for one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour {
    /// The fill, `#rrggbb`.
    pub fill: &'static str,
    /// Text and outlines drawn on the fill: dark on light colours, light on
    /// dark ones.
    pub ink: &'static str,
    /// The ANSI background code of a piece on a terminal (`41`).
    pub ansi_bg: &'static str,
    /// The ANSI foreground code of the letter on that background (`97`).
    pub ansi_fg: &'static str,
}

const DARK_INK: &str = "#202020";
const LIGHT_INK: &str = "#f8f8f8";

/// The colour words a seat name may use, with their colours.
const NAMED: [(&str, Colour); 17] = [
    ("red", c("#c0392b", LIGHT_INK, "41", "97")),
    ("blue", c("#2e6fb5", LIGHT_INK, "44", "97")),
    ("green", c("#2e8b57", LIGHT_INK, "42", "97")),
    ("yellow", c("#f1c40f", DARK_INK, "43", "30")),
    ("white", c("#f8f8f0", DARK_INK, "107", "30")),
    ("black", c("#202020", LIGHT_INK, "40", "97")),
    ("purple", c("#8e44ad", LIGHT_INK, "45", "97")),
    ("violet", c("#8e44ad", LIGHT_INK, "45", "97")),
    ("magenta", c("#c2185b", LIGHT_INK, "45", "97")),
    ("pink", c("#f48fb1", DARK_INK, "105", "30")),
    ("orange", c("#e67e22", DARK_INK, "48;5;208", "30")),
    ("brown", c("#8b5a2b", LIGHT_INK, "48;5;94", "97")),
    ("cyan", c("#17a2b8", DARK_INK, "46", "30")),
    ("grey", c("#808080", LIGHT_INK, "100", "97")),
    ("gray", c("#808080", LIGHT_INK, "100", "97")),
    ("gold", c("#d4a017", DARK_INK, "48;5;178", "30")),
    ("silver", c("#c0c0c0", DARK_INK, "47", "30")),
];

/// Colours for seats whose names name none, in order; each differs from
/// every colour of `NAMED`.
const SPARE: [Colour; 8] = [
    c("#16a085", LIGHT_INK, "48;5;30", "97"),
    c("#d35400", LIGHT_INK, "48;5;166", "97"),
    c("#5d6d7e", LIGHT_INK, "48;5;60", "97"),
    c("#7d3c98", LIGHT_INK, "48;5;97", "97"),
    c("#a9cce3", DARK_INK, "48;5;153", "30"),
    c("#b7950b", DARK_INK, "48;5;136", "30"),
    c("#1b4f72", LIGHT_INK, "48;5;24", "97"),
    c("#e59866", DARK_INK, "48;5;180", "30"),
];

const fn c(
    fill: &'static str,
    ink: &'static str,
    ansi_bg: &'static str,
    ansi_fg: &'static str,
) -> Colour {
    Colour {
        fill,
        ink,
        ansi_bg,
        ansi_fg,
    }
}

/// The colour a name names: itself a colour word, or ending in one
/// (`dark-green`, `Team Red`), in any case.
pub fn named(name: &str) -> Option<Colour> {
    let lower = name.to_lowercase();
    let last = lower
        .rsplit(|ch: char| !ch.is_alphanumeric())
        .find(|w| !w.is_empty())?;
    NAMED.iter().find(|(w, _)| *w == last).map(|(_, c)| *c)
}

/// One colour per name, in order: a name's own colour, else the first
/// spare colour not yet given (and then grey shades by turns, which a
/// game of more seats than colours can't avoid).
pub fn for_names<S: AsRef<str>>(names: &[S]) -> Vec<Colour> {
    let own: Vec<Option<Colour>> = names.iter().map(|n| named(n.as_ref())).collect();
    let mut used: Vec<&'static str> = own.iter().flatten().map(|c| c.fill).collect();
    let mut spare = SPARE.iter().chain(NAMED.iter().map(|(_, c)| c));
    own.iter()
        .map(|o| match o {
            Some(c) => *c,
            None => match spare.by_ref().find(|c| !used.contains(&c.fill)) {
                Some(c) => {
                    used.push(c.fill);
                    *c
                }
                None => c("#808080", LIGHT_INK, "100", "97"),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_seats_get_their_colours() {
        let cs = for_names(&["red", "Blue", "dark-green", "yellow"]);
        assert_eq!(cs[0].fill, "#c0392b");
        assert_eq!(cs[1].fill, "#2e6fb5");
        assert_eq!(cs[2].fill, "#2e8b57");
        assert_eq!(cs[3].fill, "#f1c40f");
    }

    #[test]
    fn other_names_get_distinct_unused_colours() {
        let names = ["north", "red", "south", "east", "west"];
        let cs = for_names(&names);
        assert_eq!(cs[1].fill, "#c0392b");
        let mut fills: Vec<&str> = cs.iter().map(|c| c.fill).collect();
        fills.sort_unstable();
        fills.dedup();
        assert_eq!(fills.len(), names.len());
    }

    #[test]
    fn many_seats_still_get_colours() {
        let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        assert_eq!(for_names(&names).len(), 40);
    }
}
