//! 9.5.2 Neutral entries: Italy, Romania and Greece join the Allies, Bulgaria the Central
//! Powers; one a turn, both players together (9.5.2.2).

use crate::data::{Nation, Side};
use crate::game::{Frame, PathsOfGlory};
use sandtable_core::game::Refusal;
use sandtable_core::graph::Space;
use sandtable_core::text::Text;

/// 9.5.2.1: the cards that bring a neutral nation into the war, with its code.
fn neutral_entry(side: Side, card: u8) -> Option<&'static str> {
    match (side, card) {
        (Side::Ap, 16) => Some("ro"),
        (Side::Ap, 17) => Some("it"),
        (Side::Ap, 44) => Some("gr"),
        (Side::Cp, 34) => Some("bu"),
        _ => None,
    }
}

/// A country's name from its code, in both languages.
fn country(code: &str) -> Text {
    Nation::of_code(code).map_or_else(|| Text::new(code, code), Nation::name)
}

/// 9.5.2: whether a neutral entry may be played now.
fn check_entry(g: &PathsOfGlory, code: &str) -> Result<(), Refusal> {
    if !g.pos.neutral.iter().any(|n| n == code) {
        return Err(PathsOfGlory::refuse(
            "9.5.2.1",
            format!("{} is already at war", country(code).en),
            format!("{}已经参战", country(code).zh),
        ));
    }
    // 16.4: after the Fall of the Tsar, Romania does not enter.
    if code == "ro" && super::tsar_fell(g) {
        return Err(PathsOfGlory::refuse(
            "16.4",
            "Romania does not enter the war after the Fall of the Tsar (CP #52)",
            "沙皇倒台(同盟国#52)后罗马尼亚不再参战",
        ));
    }
    if g.turn.neutral_entry {
        return Err(PathsOfGlory::refuse(
            "9.5.2.2",
            "only one neutral nation enters the war a turn, both players together",
            "每回合双方合计只能有一个中立国参战",
        ));
    }
    Ok(())
}

/// 9.5.2: whether a neutral entry may be played now; `None` for a card that is not one.
pub(super) fn check(g: &PathsOfGlory, side: Side, card: u8) -> Option<Result<(), Refusal>> {
    neutral_entry(side, card).map(|code| check_entry(g, code))
}

/// 9.5.2.1: the nation enters the war; its units set up by choice wait to be placed. `false` for
/// a card that is not a neutral entry.
pub(super) fn carry_out(g: &mut PathsOfGlory, side: Side, card: u8) -> bool {
    let Some(code) = neutral_entry(side, card) else {
        return false;
    };
    let data = g.data();
    g.turn.neutral_entry = true;
    let (setup, historical) = (g.setup_data(), g.scenario.historical);
    let chosen = setup
        .enter(data, &mut g.pos, code, historical, false)
        .unwrap_or_default();
    g.journal.say(|| {
        Text::new(
            format!("{} enters the war (9.5.2.1)", country(code).en),
            format!("{}参战(9.5.2.1)", country(code).zh),
        )
    });
    let units: Vec<u16> = chosen
        .iter()
        .filter_map(|id| data.pieces.iter().position(|p| &p.id == id))
        .map(|u| u as u16)
        .collect();
    if !units.is_empty() {
        g.engine.push(Frame::EntryChoice {
            side,
            nation: code.to_string(),
            units,
        });
    }
    true
}

/// The spaces a nation's unit placed by choice on its entry may go to (Bulgaria, Romania).
pub(crate) fn entry_spaces(g: &PathsOfGlory, nation: &str) -> Vec<Space> {
    g.setup_data().choice_spaces(g.data(), &g.pos, nation)
}

/// 9.5.2.1: the first unit of an entry's choice is placed, the next waits its turn.
pub(crate) fn place_entry(g: &mut PathsOfGlory, side: Side, nation: String, mut units: Vec<u16>, at: Option<Space>) {
    if units.is_empty() {
        return;
    }
    super::put(g, units.remove(0), at, "9.5.2.1");
    if !units.is_empty() {
        g.engine.push(Frame::EntryChoice { side, nation, units });
    }
}

/// Our short text of the neutral entries' events, in both languages.
pub(super) fn text(side: Side, card: u8) -> Option<Text> {
    const ONE: (&str, &str) = (
        " Only one neutral nation enters the war a turn, both players together (9.5.2.2).",
        "每回合双方合计只能有一个中立国参战(9.5.2.2)。",
    );
    let (en, zh) = match (side, card) {
        (Side::Ap, 16) => (
            "Romania enters the war on the Allied side; its army and corps are set up, the extra corps where the Allies choose (9.5.2.1). Not once the Tsar has fallen.",
            "罗马尼亚加入协约国参战:其部队按设置表就位,额外的军由协约国选择位置(9.5.2.1)。沙皇倒台后不可打出。",
        ),
        (Side::Ap, 17) => (
            "Italy enters the war on the Allied side; its armies and corps are set up (9.5.2.1). While the Allies are at Total War and hold this card back, the CP gains 1 VP each turn.",
            "意大利加入协约国参战:其部队按设置表就位(9.5.2.1)。协约国进入全面战争后仍未打出本卡时,同盟国每回合获得1胜利点。",
        ),
        (Side::Ap, 44) => (
            "Greece enters the war on the Allied side; its units are set up and may move from now on (9.5.2.1, 9.5.2.4).",
            "希腊加入协约国参战:其部队按设置表就位,此后可以移动(9.5.2.1、9.5.2.4)。",
        ),
        (Side::Cp, 34) => (
            "Bulgaria enters the war on the Central Powers' side; its armies and corps are set up, the extra corps where the CP chooses (9.5.2.1).",
            "保加利亚加入同盟国参战:其部队按设置表就位,额外的军由同盟国选择位置(9.5.2.1)。",
        ),
        _ => return None,
    };
    Some(Text::new(format!("{en}{}", ONE.0), format!("{zh}{}", ONE.1)))
}
