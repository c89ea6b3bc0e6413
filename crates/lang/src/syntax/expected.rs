//! The rename table: grammar rules in words, for "expected ..." messages.

use super::parser::Rule;

/// What a user calls the text a rule matches, or `None` for rules that never
/// show up in an error on their own.
pub fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        EOI => "the end of the file",
        kw_extends | kw_game | kw_description | kw_board | kw_playable | kw_notation | kw_pdn | pdn_stmt | kw_side
        | kw_first | kw_directions | kw_zone | kw_piece | kw_setup | kw_capture | kw_chain
        | kw_crown | kw_long_landing | kw_on | kw_option | kw_when | extends_stmt | game_stmt
        | description_stmt | board_stmt | playable_stmt | notation_stmt | side_stmt
        | first_stmt | directions_stmt | zone_stmt | piece_stmt | setup_stmt | capture_stmt
        | chain_stmt | crown_stmt | long_landing_stmt | on_stmt | end_stmt | option_stmt
        | when_stmt | kw_track | kw_players | kw_seats | kw_pieces | kw_dice | kw_move
        | kw_enter | kw_extra | kw_finish | kw_win | kw_landing | kw_resting | track_stmt
        | players_stmt | seats_stmt | pieces_stmt | dice_stmt | move_stmt | enter_stmt
        | extra_stmt | finish_stmt | win_stmt | landing_rules_stmt | cell_rule_stmt
        | kw_remove | remove_stmt | remove_option_stmt | kw_safe | safe_stmt | kw_outcome | outcome_stmt
        | kw_finishing | finishing_stmt | kw_rolling | roll_rule_stmt | no_landing_stmt
        | kw_tries | tries_stmt | kw_leave | leave_start_stmt | kw_path | path_stmt | kw_throw
        | throw_stmt | kw_hand | hand_stmt | kw_holes | holes_stmt | kw_lines | lines_stmt | kw_opening | opening_stmt | kw_protected | protect_stmt
        | no_passing_stmt | kw_layout | layout_stmt | kw_bonus | bonus_stmt | kw_score | score_stmt => {
            "a new statement"
        }
        name | identifier => "a name",
        dir_name | direction | dir_list | vector => "a direction",
        algebraic_square | numeric_square | square_list | place => "a square",
        zone_ref => "a zone",
        side_lists | side_list => "a side",
        string | string_text => "a string",
        quote => "`\"`",
        number | integer | decimal => "a number",
        letter => "an upper-case letter",
        rank_number => "a rank number",
        equals => "`=`",
        dash => "`-`",
        comma => "`,`",
        colon => "`:`",
        open_brace => "`{`",
        close_brace => "`}`",
        open_paren => "`(`",
        close_paren => "`)`",
        kw_x => "`x`",
        kw_gametype => "`gametype`",
        kw_all => "`all`",
        kw_dark => "`dark`",
        kw_light => "`light`",
        kw_algebraic => "`algebraic`",
        kw_numeric => "`numeric`",
        kw_forward => "`forward`",
        compass => "a compass direction (`north`, `south`, `east`, `west`)",
        kw_north => "`north`",
        kw_south => "`south`",
        kw_east => "`east`",
        kw_west => "`west`",
        kw_letter | letter_clause => "`letter`",
        kw_rank => "`rank`",
        kw_ranks => "`ranks`",
        kw_last => "`last`",
        kw_no_stop => "`no-stop`",
        zone_property => "`no-stop`, `hostile` or `only`",
        kw_hostile | hostile_property => "`hostile`",
        kw_when_empty => "`when-empty`",
        kw_only | only_property => "`only`",
        kw_captured | end_captured => "`captured`",
        captured_line => "`captured surrounded`",
        kw_surrounded => "`surrounded`",
        kw_unarmed | unarmed_line => "`unarmed`",
        kw_step | step_line => "`step`",
        kw_slide | slide_line => "`slide`",
        kw_jump | jump_line => "`jump`",
        kw_short => "`short`",
        kw_long => "`long`",
        kw_promote | promote_line => "`promote`",
        kw_immune | immune_line => "`immune`",
        kw_value | value_line => "`value`",
        kw_place | place_line => "`place`",
        kw_unlimited => "`unlimited`",
        kw_anywhere => "`anywhere`",
        kw_enclosing => "`enclosing`",
        kw_most_pieces | end_most_pieces => "`most-pieces`",
        kw_line | end_line => "`line`",
        kw_exactly => "`exactly`",
        line_dirs => "a direction",
        kw_at => "`at`",
        kw_enemy => "`enemy`",
        kw_any => "`any`",
        kw_compulsory => "`compulsory`",
        kw_optional => "`optional`",
        kw_most => "`most`",
        kw_free => "`free`",
        kw_removes | removes => "`removes`",
        kw_at_end => "`at-end`",
        kw_at_once => "`at-once`",
        kw_converts | converts => "`converts`",
        kw_stacks => "`stacks`",
        kw_to => "`to`",
        kw_must_continue => "`must-continue`",
        kw_may_stop => "`may-stop`",
        kw_mid_chain => "`mid-chain`",
        kw_stay => "`stay`",
        kw_continue => "`continue`",
        kw_stop => "`stop`",
        kw_end => "`end`",
        kw_convert => "`convert`",
        kw_no_pieces | end_no_pieces => "`no-pieces`",
        kw_no_moves | end_no_moves => "`no-moves`",
        kw_lose => "`lose`",
        kw_pass => "`pass`",
        kw_draw => "`draw`",
        kw_repetition | end_repetition => "`repetition`",
        end_draw_after => "`draw`",
        kw_after | end_after => "`after`",
        verdict => "an outcome (`win`, `lose`, `draw` or `pass`)",
        kw_reach | end_reach => "`reach`",
        kw_reduced_to | end_reduced_to => "`reduced-to`",
        kw_loser | end_loser => "`loser`",
        kw_drops_out => "`drops-out`",
        kw_ends_game => "`ends-game`",
        kw_plies => "`plies`",
        kw_without => "`without`",
        kw_or => "`or`",
        kw_conversion => "`conversion`",
        kw_promotion => "`promotion`",
        kw_move_of => "`move-of`",
        event => "an event (`capture`, `conversion`, `promotion`, `move-of`)",
        die => "a die, such as `d6`",
        kw_per => "`per`",
        kw_player => "`player`",
        kw_by | move_by_sum => "`by`",
        kw_sum => "`sum`",
        enter_sum => "`or sum`",
        kw_always => "`always`",
        enter_on | extra_on => "`on`",
        kw_roll => "`roll`",
        kw_never => "`never`",
        kw_doubles => "`doubles`",
        kw_exact | finish_exact => "`exact`",
        kw_bounce => "`bounce`",
        kw_past => "`past`",
        win_first => "`first`",
        win_all => "`all`",
        kw_rules => "`rules`",
        kw_once => "`once`",
        kw_and => "`and`",
        test | test_term | digit_test | kw_double | cells_test | multiple_test | kw_entering
        | roll_test | kw_not => "a test (`digit`, `double`, `cells`, `multiple of`, `any`, `entering`, `roll`)",
        kw_digit => "`digit`",
        kw_cells | kw_cell => "`cells`",
        cell_item => "a cell number",
        kw_multiple => "`multiple`",
        kw_of => "`of`",
        forward_effect | back_effect | go_effect | kw_out | miss_effect | no_extra_effect
        | extra_effect | repeat_effect | kw_held | kw_bump | targeted_effect | end_turn_effect => {
            "an effect (`forward`, `back`, `go to`, `out`, `miss`, `no extra roll`, `extra roll`, `repeat move`, `held`, `bump`, `stop`, `end turn`, or a target and a move such as `opponents out`)"
        }
        target | kw_others | kw_opponents | kw_furthest | kw_hindmost | kw_own_pieces
        | kw_last_moved => "a target (`others`, `opponents`, `furthest`, `hindmost`, `own-pieces`, `last-moved`)",
        circuit | kw_loop => "`loop`",
        kw_starts => "`starts`",
        kw_home => "`home`",
        kw_kept => "`kept`",
        cell_range => "a cell name (`m4`, `a1-a4`)",
        kw_sticks => "`sticks`",
        kw_serpentine | layout_serpentine => "`serpentine`",
        kw_spiral => "`spiral`",
        kw_cross => "`cross`",
        kw_lanes => "`lanes`",
        kw_tables => "`tables`",
        throw_value => "a count or a face and its value (`0 = 5`)",
        kw_closed => "`closed`",
        kw_rows | passing_rows => "`rows`",
        passing_stack => "a number of pieces on a cell",
        kw_passing => "`passing`",
        kw_blocked => "`blocked`",
        kw_swap => "`swap`",
        move_back => "`back`",
        kw_own => "`own`",
        kw_can => "`can`",
        enter_at_start => "`at start`",
        kw_start => "`start`",
        kw_first_home => "`first-home`",
        kw_last_home => "`last-home`",
        kw_order => "`order`",
        roll_condition => "the faces of the dice, or `N doubles in a row`",
        doubles_run => "`N doubles in a row`",
        faces_run => "`F ... N times in a row`",
        kw_times => "`times`",
        kw_in => "`in`",
        kw_a => "`a`",
        kw_row => "`row`",
        kw_left | score_left => "`pieces left`",
        score_when => "`when the loser ...`",
        kw_the => "`the`",
        kw_has | score_test => "a test of the loser (`has borne off none`, `has a piece out or in the winner's last N`)",
        kw_borne | score_none_off => "`borne off none`",
        kw_none => "`none`",
        score_piece => "`a piece`",
        score_place | score_last => "a place (`out`, `in the winner's last N`)",
        kw_winners => "`winner's`",
        kw_back => "`back`",
        kw_go => "`go`",
        kw_miss => "`miss`",
        kw_turns | kw_turn => "`turns`",
        kw_no => "`no`",
        kw_repeat => "`repeat`",
        precedence | kw_precedence => "`precedence`",
        criterion | crit_most_pieces | crit_most_value | crit_most_kind | crit_fewest_kind
        | crit_by_kind | crit_earliest_kind | kw_fewest | kw_earliest => {
            "a criterion (`most pieces`, `most value`, `most KIND`, `fewest KIND`, `by KIND`, `earliest KIND`)"
        }
        custodian | kw_custodian => "`custodian`",
        kw_corners => "`corners`",
        kw_edge | edge => "`edge`",
        kw_neutral => "`neutral`",
        kw_neighbours | neighbours => "`neighbours`",
        kw_clone => "`clone`",
        kw_hop | hop_line => "`hop`",
        opening_on | opening_next | kw_next_to => "`on` or `next-to`",
        kw_empty => "`empty`",
        replacement | kw_captures | kw_captures_only => "`captures`",
        jump_limit | kw_land_beyond | kw_no_reverse | kw_straight => {
            "a limit (`land-beyond`, `no-reverse`, `must-continue`, `straight`)"
        }
        remove_zone => "`zone`",
        remove_option => "`option`",
        remove_piece => "`piece`",
        remove_trigger => "`on`",
        remove_end => "`end`",
        end_name => "an end rule (`no-pieces`, `no-moves`, `repetition`, `draw`)",
        _ => return None,
    })
}

/// The first words of the effects of a cell rule.
const EFFECT_STARTS: &[Rule] = &[
    Rule::kw_forward,
    Rule::kw_back,
    Rule::kw_go,
    Rule::kw_out,
    Rule::kw_miss,
    Rule::kw_no,
    Rule::kw_extra,
    Rule::kw_repeat,
    Rule::kw_held,
    Rule::kw_bump,
    Rule::kw_stop,
    Rule::kw_others,
    Rule::kw_opponents,
    Rule::kw_furthest,
    Rule::kw_hindmost,
    Rule::kw_own_pieces,
    Rule::kw_last_moved,
    Rule::kw_end,
    Rule::target,
];

/// The first words of the tests of a cell rule.
const TEST_STARTS: &[Rule] = &[
    Rule::kw_not,
    Rule::kw_digit,
    Rule::kw_double,
    Rule::kw_cells,
    Rule::kw_cell,
    Rule::kw_multiple,
    Rule::kw_any,
    Rule::kw_entering,
    Rule::kw_roll,
];

/// "a, b or c" from the expected rules, each described once, in a stable
/// order.
pub fn expected_words(rules: &[Rule]) -> String {
    let mut words: Vec<&'static str> = Vec::new();
    // Where an effect (or a test) of a cell rule may come, its first words
    // are many: name the whole family once.
    let effects = rules.contains(&Rule::kw_repeat).then_some(EFFECT_STARTS);
    let tests = rules.contains(&Rule::kw_digit).then_some(TEST_STARTS);
    let rules: Vec<Rule> = rules
        .iter()
        .map(|&r| match (effects, tests) {
            (Some(g), _) if g.contains(&r) => Rule::forward_effect,
            (_, Some(g)) if g.contains(&r) => Rule::test,
            _ => r,
        })
        .collect();
    for &rule in &rules {
        if let Some(w) = describe(rule) {
            if !words.contains(&w) {
                words.push(w);
            }
        }
    }
    // A direction may start with `(`: naming the direction says it all.
    if words.contains(&"a direction") {
        words.retain(|w| *w != "`(`");
    }
    // Inside a list, a new statement may also begin; the end of the file is
    // then one more way for the list to end, not worth a word.
    if words.contains(&"a new statement") {
        words.retain(|w| *w != "the end of the file" && *w != "`end`");
    }
    // Statements last: the specific tokens are the likelier fix.
    words.sort_by_key(|w| match *w {
        "a new statement" => 2,
        "the end of the file" => 3,
        _ => 1,
    });
    join_or(&words)
}

/// "a", "a or b", "a, b or c".
pub fn join_or(words: &[&str]) -> String {
    match words {
        [] => "something else".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}
