//! 7.0 Mandated Offensives: at the start of each turn each side rolls on its table (7.1.1) for
//! the nation that must attack this turn, or none; the nation must then make an attack that
//! meets the offensive (7.1.3–7.1.7), or its side pays a VP in the War Status Phase (7.1.3).

use crate::data::{Nation, Side};
use crate::tables::Tables;

/// The box an offensive marker stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Offensive {
    /// A nation must attack: FR, BR, IT, RU for the Allies; AH, TU, GE for the CP.
    Nation(Nation),
    /// 7.1.6: the Austro-Hungarians must attack the Italians.
    AhAgainstItaly,
    /// 7.1.8: after French Mutiny a French result asks no attack and punishes one.
    FrenchMutiny,
    /// None or Made.
    None,
}

/// What bears on the roll beyond the die.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    /// 7.1.9: Hoffmann played (CP rolls +1).
    pub hoffmann: bool,
    /// 7.1.10: H-L Take Command played (GE reads None).
    pub hl_take_command: bool,
    /// 7.1.11: Bolshevik Revolution played (RU reads None).
    pub bolshevik_revolution: bool,
    /// 7.1.8: French Mutiny played.
    pub french_mutiny: bool,
    /// Whether Italy is at war (a neutral nation's result has no effect, 7.1.2).
    pub italy_at_war: bool,
    /// Whether Turkey is at war.
    pub turkey_at_war: bool,
    /// 7.1.6: Rome in CP hands.
    pub rome_lost: bool,
    /// The Historical scenario's turn 1 (5.7.4.5: a British result is French).
    pub historical_turn_1: bool,
    /// 7.1.2 (2022): the nations whose capital is in enemy hands (Austria-Hungary: both Vienna
    /// and Budapest); such a nation has no offensive and the marker moves on to the right.
    pub capitals_lost: &'a [Nation],
}

fn nation_of(code: &str) -> Option<Nation> {
    Some(match code {
        "fr" => Nation::Fr,
        "br" => Nation::Br,
        "it" => Nation::It,
        "ru" => Nation::Ru,
        "ah" | "ah-it" => Nation::Ah,
        "tu" => Nation::Tu,
        "ge" => Nation::Ge,
        _ => return None,
    })
}

/// 7.1: the offensive a side's roll gives.
pub fn roll(tables: &Tables, side: Side, die: u8, ctx: &Context) -> Offensive {
    let table = match side {
        Side::Ap => &tables.mandated_offensive.ap,
        Side::Cp => &tables.mandated_offensive.cp,
    };
    let modified = die as i32 + i32::from(side == Side::Cp && ctx.hoffmann);
    let mut at = table
        .boxes
        .iter()
        .position(|b| b == table.read(modified))
        .unwrap_or(table.boxes.len() - 1);
    loop {
        let code = table.boxes[at].as_str();
        let mut code = code;
        // 5.7.4.5: in the Historical scenario's first turn a British result is French.
        if ctx.historical_turn_1 && code == "br" {
            code = "fr";
        }
        // 7.1.6: against Italy only while Italy is at war and Rome is Italian.
        if code == "ah-it" && (!ctx.italy_at_war || ctx.rome_lost) {
            code = "ah";
        }
        let Some(n) = nation_of(code) else {
            return Offensive::None;
        };
        // 7.1.2 (2022): a nation whose capital is the enemy's moves the marker on.
        if ctx.capitals_lost.contains(&n) {
            at += 1;
            if at >= table.boxes.len() {
                return Offensive::None;
            }
            continue;
        }
        return match n {
            // A neutral nation has none (7.1.2).
            Nation::It if !ctx.italy_at_war => Offensive::None,
            Nation::Tu if !ctx.turkey_at_war => Offensive::None,
            Nation::Ge if ctx.hl_take_command => Offensive::None,
            Nation::Ru if ctx.bolshevik_revolution => Offensive::None,
            Nation::Fr if ctx.french_mutiny => Offensive::FrenchMutiny,
            Nation::Ah if code == "ah-it" => Offensive::AhAgainstItaly,
            n => Offensive::Nation(n),
        };
    }
}

/// An attack as the offensives judge it.
#[derive(Clone, Debug, Default)]
pub struct AttackSeen<'a> {
    /// The nationalities of the attacking units (AUS, CND, PT and ANA are not British here,
    /// 7.1.4: pass the counters' own nationality, with the British counters' ids below).
    pub attackers: &'a [Nation],
    /// Whether at least one British attacker is a British counter proper (not the AUS, CND, PT
    /// or ANA, which are not British for offensives, 2022 7.1.4).
    pub british_proper: bool,
    /// Whether a Turkish attacker is other than the Senussi (7.1.5).
    pub turkish_not_senussi: bool,
    /// The defending units' nationalities.
    pub defenders: &'a [Nation],
    /// The country of the defending space.
    pub country: Option<&'a str>,
    /// Whether an Allied defender traces its supply through Italy (7.1.6).
    pub supplied_through_italy: bool,
}

/// 7.1.3–7.1.7: whether an attack meets an offensive.
pub fn met_by(o: Offensive, a: &AttackSeen) -> bool {
    let in_west = matches!(a.country, Some("fr" | "be" | "ge"));
    let attacks_with = |n: Nation| a.attackers.contains(&n);
    match o {
        // 7.1.4: British or French units attacking German units in France, Belgium or Germany.
        Offensive::Nation(Nation::Br) => {
            attacks_with(Nation::Br) && a.british_proper && in_west && a.defenders.contains(&Nation::Ge)
        }
        Offensive::Nation(Nation::Fr) => attacks_with(Nation::Fr) && in_west && a.defenders.contains(&Nation::Ge),
        // 7.1.5: German units attacking US, British, Belgian or French units there.
        Offensive::Nation(Nation::Ge) => {
            attacks_with(Nation::Ge)
                && in_west
                && a.defenders
                    .iter()
                    .any(|n| matches!(n, Nation::Us | Nation::Br | Nation::Be | Nation::Fr))
        }
        // 7.1.6: against Italians, a space of Italy, or Allied units supplied through Italy.
        Offensive::AhAgainstItaly => {
            attacks_with(Nation::Ah)
                && (a.defenders.contains(&Nation::It) || a.country == Some("it") || a.supplied_through_italy)
        }
        // 2022 7.1.5: a Turkish unit, not the Senussi, attacking any Allied unit.
        Offensive::Nation(Nation::Tu) => attacks_with(Nation::Tu) && a.turkish_not_senussi && !a.defenders.is_empty(),
        // 7.1.7 and 7.1.3: any attack on enemy units.
        Offensive::Nation(n) => attacks_with(n) && !a.defenders.is_empty(),
        Offensive::FrenchMutiny | Offensive::None => false,
    }
}

/// 7.1.8: whether an attack on a French Mutiny turn costs the Allies a VP: a French unit not
/// stacked with Americans attacking in France, Belgium or Germany.
pub fn mutiny_punishes(attacking_french_without_americans: bool, country: Option<&str>) -> bool {
    attacking_french_without_americans && matches!(country, Some("fr" | "be" | "ge"))
}

/// E.1: the VP change for an offensive not met (7.1.3): +1 (toward the CP) when the Allies
/// fail, −1 when the CP fails; none for None, Made or French Mutiny.
pub fn penalty(side: Side, o: Offensive, met: bool) -> i32 {
    if met || matches!(o, Offensive::None | Offensive::FrenchMutiny) {
        return 0;
    }
    match side {
        Side::Ap => 1,
        Side::Cp => -1,
    }
}
