//! 9.5.4, 12.2.5 (2022 12.2.1 steps 3 and 5): combat cards. After the attack is declared the
//! attacker may play the cards that negate trenches (2022 step 3), then comes the flank attempt,
//! then the attacker and after him the defender play their other combat cards (2022 step 5),
//! from the hand or from the cards held face up after an earlier win (9.5.4.2), each face-up
//! card once an action round (2022 9.5.4.4). A card played is shown to both sides; the winner of
//! the combat keeps his cards face up, the loser discards them, both discard on equal loss
//! numbers (12.2.10); a `*` card leaves the game and a card for "one combat a turn" is discarded
//! even after a win (9.5.4.2).
//!
//! Each card's condition and effect are written here in our own words, with its number.

use crate::data::{Kind, Nation, Side};
use crate::game::{other, Battle, PathsOfGlory};
use crate::state::{side_index, Location};
use crate::tables::Season;
use sandtable_core::game::Refusal;
use sandtable_core::text::Text;

/// Who may play a card: the attacker, the defender, or either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Attack,
    Defend,
    Either,
}

/// A condition beyond the role and the nationality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Extra {
    /// Only in the turns of 1914 and 1915.
    Years1914To1915,
    /// Defending in a mountain space in Fall or Winter, or a swamp space in Spring or Fall.
    SevereWeather,
    /// The defending space has a trench that counts in this combat.
    Entrenched,
    /// The defending space has no trench.
    NoTrench,
    /// The defending space is a fort space of France.
    FrenchFort,
    /// A clear space of France or Belgium.
    ClearFranceBelgium,
    /// A clear space.
    Clear,
    /// The defending space or a space the attackers come from is mountain.
    MountainToOrFrom,
    /// Every defending unit is of this nation.
    DefendersOnly(Nation),
    /// A defending unit is of this nation.
    DefendersInclude(Nation),
    /// A British army defends in France or Belgium.
    BritishArmyInFranceBelgium,
    /// A Turkish defender with a combat factor of 1 or more.
    TurkishCf1,
    /// A flank attack was attempted in this combat.
    FlankAttempted,
    /// Every British attacking unit traces its supply through Basra.
    SuppliedThroughBasra,
    /// An Allied attack in France or Belgium in which the Allies have not played Royal Tank
    /// Corps (AP #48), Yanks and Tanks (AP #35) not played.
    AlberichMay,
    /// The event of this card of the same side has been played (it left the game, 9.5.1.2).
    After(u8, &'static str, &'static str),
    /// The event of this card of the same side has not been played.
    Before(u8, &'static str, &'static str),
}

/// What a card does in the combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    /// A modifier to the playing side's fire roll.
    Drm(i32),
    /// The defending space's trench counts for neither side (2022 12.2.4).
    NegateTrench,
    /// Trenches negated and a modifier to the attacker's roll.
    NegateTrenchDrm(i32),
    /// Trenches negated and the attacker fires first.
    NegateTrenchFirstFire,
    /// Trenches negated; a VP to the Allies unless an attacker advances into the space.
    PeaceOffensive,
    /// The flank attempt succeeds.
    FlankSucceeds,
    /// The playing side fires on the Army table.
    ArmyTable,
    /// The defender does not retreat for losing this combat.
    NoRetreat,
    /// The defending space counts as holding a level-1 trench.
    TrenchLevel1,
    /// A step of the defenders' losses given back, and a one-space retreat (2022 12.6).
    Withdrawal,
    /// The attack is called off; the attacker's combat cards count as not played.
    CancelAttack,
}

struct Rule {
    role: Role,
    /// At least one of the playing side's units in the combat is of one of these nations (none:
    /// any), 9.5.4.1.1.
    nations: &'static [Nation],
    /// Every one of the side's units in the combat is of those nations.
    only: bool,
    extras: &'static [Extra],
    effect: Effect,
    /// "May only be used in one combat per turn": discarded even after a win (9.5.4.2).
    once_a_turn: bool,
    en: &'static str,
    zh: &'static str,
}

const fn rule(role: Role, nations: &'static [Nation], extras: &'static [Extra], effect: Effect) -> Rule {
    Rule {
        role,
        nations,
        only: false,
        extras,
        effect,
        once_a_turn: false,
        en: "",
        zh: "",
    }
}

impl Rule {
    const fn text(mut self, en: &'static str, zh: &'static str) -> Rule {
        self.en = en;
        self.zh = zh;
        self
    }
    const fn once(mut self) -> Rule {
        self.once_a_turn = true;
        self
    }
    const fn only(mut self) -> Rule {
        self.only = true;
        self
    }
}

const LANDSHIPS: Extra = Extra::After(28, "Landships", "陆地战舰");
const FALKENHAYN: Extra = Extra::After(13, "Falkenhayn", "法金汉");
const BEFORE_HL: Extra = Extra::Before(54, "H-L Take Command", "兴登堡与鲁登道夫接掌指挥");
const AFTER_HL: Extra = Extra::After(54, "H-L Take Command", "兴登堡与鲁登道夫接掌指挥");

/// Every combat card: its condition and effect, and our short text of it.
fn rule_of(side: Side, n: u8) -> Option<Rule> {
    use Effect::*;
    use Extra::*;
    use Nation::*;
    use Role::*;
    let r = match (side, n) {
        (Side::Ap, 4) => rule(Either, &[Ru], &[], Drm(1)).text(
            "AP #4: +1 to the Allied roll in a combat with Russian units on the Allied side.",
            "协约#4:协约方有俄军参战时,协约方掷骰+1。",
        ),
        (Side::Ap, 5) => rule(Either, &[Sb], &[Years1914To1915], Drm(1)).text(
            "AP #5: in 1914 and 1915, +1 to the Allied roll in a combat with Serbian units on the Allied side.",
            "协约#5:1914至1915年,协约方有塞尔维亚军参战时,协约方掷骰+1。",
        ),
        (Side::Ap, 6) => rule(Defend, &[], &[], Withdrawal).text(
            "AP #6: defending, one corps step of the losses is given back and the defenders fall back one space (12.6).",
            "协约#6:防守时退还一步军的损失,防守部队后撤一格(12.6)。",
        ),
        (Side::Cp, 56) => rule(Defend, &[], &[], Withdrawal).text(
            "CP #56: defending, one corps step of the losses is given back and the defenders fall back one space (12.6).",
            "同盟#56:防守时退还一步军的损失,防守部队后撤一格(12.6)。",
        ),
        (Side::Ap, 7) => rule(Defend, &[], &[SevereWeather], Drm(2)).text(
            "AP #7: defending in mountains in Fall or Winter, or in a swamp in Spring or Fall, +2 to the Allied roll.",
            "协约#7:秋冬在山地、或春秋在沼泽防守时,协约方掷骰+2。",
        ),
        (Side::Cp, 4) => rule(Defend, &[], &[SevereWeather], Drm(2)).text(
            "CP #4: defending in mountains in Fall or Winter, or in a swamp in Spring or Fall, +2 to the CP roll.",
            "同盟#4:秋冬在山地、或春秋在沼泽防守时,同盟方掷骰+2。",
        ),
        (Side::Ap, 18) => rule(Attack, &[Br], &[], Drm(1)).text(
            "AP #18: +1 to the roll of an attack with British units.",
            "协约#18:有英军参加的进攻,掷骰+1。",
        ),
        (Side::Ap, 19) => rule(Attack, &[Br, Fr], &[], Drm(1)).text(
            "AP #19: +1 to the roll of an attack with British or French units.",
            "协约#19:有英军或法军参加的进攻,掷骰+1。",
        ),
        (Side::Ap, 21) => rule(Attack, &[Fr], &[], Drm(1)).text(
            "AP #21: +1 to the roll of an attack with French units.",
            "协约#21:有法军参加的进攻,掷骰+1。",
        ),
        (Side::Ap, 36) => rule(Attack, &[Br], &[Entrenched], Drm(1)).once().text(
            "AP #36: +1 to the roll of a British attack on a defender in a trench; one combat a turn.",
            "协约#36:英军进攻壕沟中的防守方时掷骰+1;每回合限一场会战。",
        ),
        (Side::Ap, 39) => rule(Defend, &[], &[FrenchFort], NoRetreat).text(
            "AP #39: defending in a French fort space, the Allies do not retreat for losing the combat.",
            "协约#39:在法国要塞区域防守时,协约方战败也不撤退。",
        ),
        (Side::Ap, 48) => rule(Attack, &[Br], &[LANDSHIPS, ClearFranceBelgium], NegateTrench).once().text(
            "AP #48: after Landships, a British attack on a clear space of France or Belgium ignores its trench; one combat a turn.",
            "协约#48:“陆地战舰”之后,英军进攻法国或比利时的开阔区域时无视壕沟;每回合限一场会战。",
        ),
        (Side::Ap, 58) => rule(Attack, &[Ru], &[], Drm(1)).text(
            "AP #58: +1 to the roll of an attack with Russian units.",
            "协约#58:有俄军参加的进攻,掷骰+1。",
        ),
        (Side::Ap, 59) => rule(Attack, &[It], &[], Drm(1)).only().text(
            "AP #59: +1 to the roll of an attack by Italian units alone.",
            "协约#59:仅由意大利军发动的进攻,掷骰+1。",
        ),
        (Side::Ap, 61) => rule(Attack, &[Br], &[SuppliedThroughBasra], ArmyTable).text(
            "AP #61: one British attack by units supplied through Basra fires on the Army table.",
            "协约#61:经巴士拉获得补给的英军的一次进攻使用集团军火力表。",
        ),
        (Side::Ap, 63) => rule(Defend, &[Br], &[BritishArmyInFranceBelgium], NoRetreat).text(
            "AP #63: a British army defending in France or Belgium does not retreat for losing the combat.",
            "协约#63:在法国或比利时防守的英国集团军战败也不撤退。",
        ),
        (Side::Cp, 2) => rule(Attack, &[Ge], &[DefendersOnly(Ru), FlankAttempted], FlankSucceeds).text(
            "CP #2: a German flank attempt on Russian units alone succeeds.",
            "同盟#2:德军对仅有俄军的区域的挟击必定成功。",
        ),
        (Side::Cp, 3) => rule(Attack, &[Ge], &[DefendersInclude(Ru)], Drm(1)).text(
            "CP #3: +1 to the roll of a German attack on Russian units.",
            "同盟#3:德军进攻俄军时掷骰+1。",
        ),
        (Side::Cp, 15) => rule(Attack, &[Ge], &[], Drm(1)).text(
            "CP #15: +1 to the roll of an attack with German units.",
            "同盟#15:有德军参加的进攻,掷骰+1。",
        ),
        (Side::Cp, 16) => rule(Either, &[Tu], &[], Drm(1)).text(
            "CP #16: +1 to the CP roll in a combat with Turkish units on the CP side.",
            "同盟#16:同盟方有土耳其军参战时,同盟方掷骰+1。",
        ),
        (Side::Cp, 18) => rule(Defend, &[Ge], &[Entrenched], Drm(1)).text(
            "CP #18: +1 to the roll of German units defending in a trench.",
            "同盟#18:德军在壕沟中防守时掷骰+1。",
        ),
        (Side::Cp, 19) => rule(Attack, &[Ge], &[], Drm(1)).text(
            "CP #19: +1 to the roll of an attack with German units.",
            "同盟#19:有德军参加的进攻,掷骰+1。",
        ),
        (Side::Cp, 26) => rule(Attack, &[], &[FALKENHAYN, BEFORE_HL, FrenchFort], Drm(2)).text(
            "CP #26: after Falkenhayn and before H-L Take Command, +2 to the roll of an attack on a French fort space.",
            "同盟#26:“法金汉”之后、“兴登堡与鲁登道夫接掌指挥”之前,进攻法国要塞区域时掷骰+2。",
        ),
        (Side::Cp, 30) => rule(Attack, &[Ge], &[MountainToOrFrom], Drm(1)).text(
            "CP #30: +1 to the roll of a German attack into or out of a mountain space.",
            "同盟#30:德军进攻山地区域或从山地区域发动进攻时掷骰+1。",
        ),
        (Side::Cp, 31) => rule(Defend, &[Tu], &[TurkishCf1], ArmyTable).once().text(
            "CP #31: Turkish defenders with a combat factor of 1 or more fire on the Army table; one combat a turn.",
            "同盟#31:战斗力1以上的土耳其防守部队使用集团军火力表;每回合限一场会战。",
        ),
        (Side::Cp, 35) => rule(Attack, &[Ge], &[], Drm(1)).text(
            "CP #35: +1 to the roll of an attack with German units.",
            "同盟#35:有德军参加的进攻,掷骰+1。",
        ),
        (Side::Cp, 40) => rule(Attack, &[Ge], &[], Drm(1)).text(
            "CP #40: +1 to the roll of an attack with German units.",
            "同盟#40:有德军参加的进攻,掷骰+1。",
        ),
        (Side::Cp, 43) => rule(Attack, &[], &[DefendersOnly(It)], NegateTrench).text(
            "CP #43: an attack on Italian units alone ignores the trench.",
            "同盟#43:进攻仅有意大利军的区域时无视壕沟。",
        ),
        (Side::Cp, 44) => rule(Attack, &[], &[DefendersInclude(Ru)], NegateTrenchFirstFire).text(
            "CP #44: an attack on Russian units ignores the trench, and the attacker fires first.",
            "同盟#44:进攻俄军时无视壕沟,且进攻方先开火。",
        ),
        (Side::Cp, 49) => rule(Attack, &[Ge], &[AFTER_HL], NegateTrenchDrm(1)).text(
            "CP #49: after H-L Take Command, a German attack ignores the trench, +1 to its roll.",
            "同盟#49:“兴登堡与鲁登道夫接掌指挥”之后,德军进攻无视壕沟,掷骰+1。",
        ),
        (Side::Cp, 50) => rule(Attack, &[Ge], &[AFTER_HL], NegateTrench).text(
            "CP #50: after H-L Take Command, a German attack ignores the trench.",
            "同盟#50:“兴登堡与鲁登道夫接掌指挥”之后,德军进攻无视壕沟。",
        ),
        (Side::Cp, 51) => rule(Attack, &[Ge], &[AFTER_HL], PeaceOffensive).text(
            "CP #51: after H-L Take Command, a German attack ignores the trench; 1 VP to the Allies unless an attacker advances into the space.",
            "同盟#51:“兴登堡与鲁登道夫接掌指挥”之后,德军进攻无视壕沟;若无进攻部队推进入该区域,协约方得1胜利点。",
        ),
        (Side::Cp, 57) => rule(Either, &[Ah], &[], Drm(1)).text(
            "CP #57: +1 to the CP roll in a combat with Austro-Hungarian units on the CP side.",
            "同盟#57:同盟方有奥匈军参战时,同盟方掷骰+1。",
        ),
        (Side::Cp, 60) => rule(Defend, &[Tu], &[NoTrench], TrenchLevel1).text(
            "CP #60: Turkish defenders in a space without a trench fight as if it held a level-1 trench.",
            "同盟#60:无壕沟区域中的土耳其防守部队视同有一级壕沟。",
        ),
        (Side::Cp, 62) => rule(Attack, &[Ge], &[Clear], Drm(1)).text(
            "CP #62: +1 to the roll of a German attack on a clear space.",
            "同盟#62:德军进攻开阔区域时掷骰+1。",
        ),
        (Side::Cp, 64) => rule(Defend, &[], &[AlberichMay], CancelAttack).text(
            "CP #64: cancels one Allied attack in France or Belgium; the Allied combat cards count as not played.",
            "同盟#64:取消协约方在法国或比利时的一次进攻;协约方的战斗卡视为未打出。",
        ),
        _ => return None,
    };
    Some(r)
}

/// Our short text of a combat card's event, in both languages; `None` for a card that is not
/// one.
pub fn text(side: Side, n: u8) -> Option<Text> {
    rule_of(side, n).map(|r| Text::new(r.en, r.zh))
}

/// Whether a combat card is played in the attacker's first step, before the flank attempt:
/// the cards that negate trenches (2022 12.2.1 step 3).
pub fn early(side: Side, n: u8) -> bool {
    rule_of(side, n).is_some_and(|r| {
        matches!(
            r.effect,
            Effect::NegateTrench | Effect::NegateTrenchDrm(_) | Effect::NegateTrenchFirstFire | Effect::PeaceOffensive
        )
    })
}

/// 9.5.4.2: a card for one combat a turn.
pub fn once_a_turn(side: Side, n: u8) -> bool {
    rule_of(side, n).is_some_and(|r| r.once_a_turn)
}

/// What the combat cards in play in a battle do to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The modifier of each side's fire roll, by side index.
    pub drm: [i32; 2],
    pub trench_negated: bool,
    pub trench_level1: bool,
    /// Each side fires on the Army table, by side index.
    pub army_table: [bool; 2],
    pub attacker_fires_first: bool,
    pub no_retreat: bool,
    pub peace_offensive: bool,
    pub withdrawal: bool,
    /// Alberich (CP #64): the attack is called off.
    pub cancelled: bool,
}

/// The effects of the cards both sides play in a battle.
pub fn effects(b: &Battle) -> Effects {
    // What the events of the front gave the attack when it was declared (`events::front`).
    let mut e = Effects {
        drm: b.event_drm,
        trench_negated: b.event_trench_negated,
        no_retreat: b.event_no_retreat,
        ..Effects::default()
    };
    for side in [Side::Cp, Side::Ap] {
        let i = side_index(side);
        for &n in &b.cards[i] {
            let Some(r) = rule_of(side, n) else { continue };
            match r.effect {
                Effect::Drm(d) => e.drm[i] += d,
                Effect::NegateTrench => e.trench_negated = true,
                Effect::NegateTrenchDrm(d) => {
                    e.trench_negated = true;
                    e.drm[i] += d;
                }
                Effect::NegateTrenchFirstFire => {
                    e.trench_negated = true;
                    e.attacker_fires_first = true;
                }
                Effect::PeaceOffensive => {
                    e.trench_negated = true;
                    e.peace_offensive = true;
                }
                Effect::ArmyTable => e.army_table[i] = true,
                Effect::NoRetreat => e.no_retreat = true,
                Effect::TrenchLevel1 => e.trench_level1 = true,
                Effect::Withdrawal => e.withdrawal = true,
                Effect::CancelAttack => e.cancelled = true,
                Effect::FlankSucceeds => {}
            }
        }
    }
    e
}

/// Whether the flank attempt the card makes succeed is what it does.
pub fn makes_flank_succeed(side: Side, n: u8) -> bool {
    rule_of(side, n).is_some_and(|r| r.effect == Effect::FlankSucceeds)
}

/// 9.5.4.1.1 (2022): a counter counts for a card naming its nation only as that nation proper:
/// the AUS, CND and PT corps are not British, the ANA is not, the Senussi are not Turkish,
/// Montenegro is not Serbian.
fn of_nation(g: &PathsOfGlory, u: u16, n: Nation) -> bool {
    let p = &g.data().pieces[u as usize];
    p.nation == n && !(n == Nation::Br && ["br-corps-aus", "br-corps-cnd", "br-corps-pt"].contains(&p.id.as_str()))
}

/// The side's units in the battle: the attackers on the map, or the defenders in the space.
fn own_units(g: &PathsOfGlory, b: &Battle, side: Side) -> Vec<u16> {
    if side == b.attacker {
        b.attackers
            .iter()
            .copied()
            .filter(|&u| matches!(g.pos.units[u as usize].loc, Location::Map(_)))
            .collect()
    } else {
        // While a legal list is made, from the units of each space kept beside the game.
        g.units_of_side(side, b.defending)
            .into_iter()
            .map(|u| u as u16)
            .collect()
    }
}

fn refuse(rule: &str, en: impl Into<String>, zh: impl Into<String>) -> Refusal {
    PathsOfGlory::refuse(rule, en, zh)
}

/// Whether the defending space's trench counts now: units defend it (15.1.6) and no card has
/// negated it.
fn trench_counts(g: &PathsOfGlory, b: &Battle) -> bool {
    !own_units(g, b, other(b.attacker)).is_empty() && !effects(b).trench_negated
}

/// The action round in progress (8.1): the round of the Round frame waiting below, less one
/// when it is the CP's (the Allies' action of the round before is under way), 6 when none.
pub(crate) fn current_round(g: &PathsOfGlory) -> u8 {
    g.frames()
        .iter()
        .rev()
        .find_map(|f| match f {
            crate::game::Frame::Round { round, side } => Some(if *side == Side::Ap { *round } else { round - 1 }),
            _ => None,
        })
        .unwrap_or(6)
}

/// Whether `side` may play card `n` now in the battle, from its hand or face up, in the step
/// given (`early`: the attacker's step before the flank attempt).
pub(crate) fn check(g: &PathsOfGlory, b: &Battle, side: Side, n: u8, early_step: bool) -> Result<(), Refusal> {
    let data = g.data();
    // The card's name and rule, written only into a refusal that may be read.
    let name = || g.card_name(side, n);
    let cards = &g.pos.cards[side_index(side)];
    let in_hand = cards.hand.contains(&n);
    let face_up = cards.face_up.contains(&n);
    if !in_hand && !face_up {
        return Err(refuse(
            "12.2.5",
            "a combat card is played from the hand or from the cards held face up",
            "战斗卡须从手牌或面朝上保留的牌中打出",
        ));
    }
    let Some(r) = rule_of(side, n).filter(|_| data.card(side, n).is_some_and(|c| c.combat)) else {
        return Err(PathsOfGlory::refuse_with("9.5.4.1", || {
            let name = name();
            Text::new(
                format!("{} is not a combat card", name.en),
                format!("{}不是战斗卡", name.zh),
            )
        }));
    };
    // Written only for a refusal that may be read (while a legal list is made, none is).
    let cite = || {
        if crate::game::listing() {
            String::new()
        } else {
            format!("9.5.4, {} #{n}", if side == Side::Ap { "AP" } else { "CP" })
        }
    };
    if b.cards[side_index(side)].contains(&n) {
        return Err(refuse(
            &cite(),
            "that card is already in play in this combat",
            "该牌已在本次会战中打出",
        ));
    }
    // 2022 9.5.4.4: a card held face up affects one combat an action round.
    let round = current_round(g);
    if face_up && g.turn.cc_used.contains(&(side_index(side) as u8, n, round)) {
        return Err(PathsOfGlory::refuse_with("9.5.4.4", || {
            let name = name();
            Text::new(
                format!("{} has already been used in a combat this action round", name.en),
                format!("{}本行动轮已在一场会战中使用过", name.zh),
            )
        }));
    }
    let attacking = side == b.attacker;
    match r.role {
        Role::Attack if !attacking => {
            return Err(PathsOfGlory::refuse_with(&cite(), || {
                let name = name();
                Text::new(
                    format!("{} is played by the attacker", name.en),
                    format!("{}只能由进攻方打出", name.zh),
                )
            }))
        }
        Role::Defend if attacking => {
            return Err(PathsOfGlory::refuse_with(&cite(), || {
                let name = name();
                Text::new(
                    format!("{} is played by the defender", name.en),
                    format!("{}只能由防守方打出", name.zh),
                )
            }))
        }
        _ => {}
    }
    // 2022 12.2.1: the trench-negating cards in step 3, the others in step 5.
    if early(side, n) != early_step {
        return Err(if early_step {
            refuse(
                "12.2.1",
                "before the flank attempt only the attacker's cards that negate trenches are played (2022 step 3)",
                "挟击之前只能打出进攻方无视壕沟的战斗卡(2022年版第3步)",
            )
        } else {
            refuse(
                "12.2.1",
                "a card that negates trenches is played before the flank attempt (2022 step 3)",
                "无视壕沟的战斗卡须在挟击之前打出(2022年版第3步)",
            )
        });
    }
    let units = own_units(g, b, side);
    if !attacking {
        // Glossary of 2022 (CC): no combat card for a fort that defends alone.
        if units.is_empty() {
            return Err(refuse(
                "9.5.4",
                "no combat card for a fort that defends with no unit in it",
                "无部队防守的要塞不能使用战斗卡",
            ));
        }
        // 14.3.4: defenders out of supply get nothing from combat cards (2022: nor do the units
        // in supply stacked with them).
        if let Some(&u) = units.iter().find(|&&u| !crate::operations::in_supply(g, u)) {
            return Err(PathsOfGlory::refuse_with("14.3.4", || {
                let un = g.unit_name(u);
                Text::new(
                    format!(
                        "{} defends out of supply: the defenders get no benefit from combat cards",
                        un.en
                    ),
                    format!("{}在缺乏补给下防守:防守方不能从战斗卡获益", un.zh),
                )
            }));
        }
    }
    // 9.5.4.1.1: a card naming a nationality needs a unit of it in the combat.
    if !r.nations.is_empty() {
        let of = |u: u16| r.nations.iter().any(|&nat| of_nation(g, u, nat));
        let ok = if r.only {
            !units.is_empty() && units.iter().all(|&u| of(u))
        } else {
            units.iter().any(|&u| of(u))
        };
        if !ok {
            // The nationalities named, written only into a refusal that may be read.
            let named = || {
                let names: Vec<Text> = r.nations.iter().map(|n| n.name()).collect();
                let en: Vec<&str> = names.iter().map(|t| t.en.as_str()).collect();
                let zh: Vec<&str> = names.iter().map(|t| t.zh.as_str()).collect();
                (en.join(" or "), zh.join("或"))
            };
            return Err(if r.only {
                PathsOfGlory::refuse_with("9.5.4.1.1", || {
                    let (en, zh) = named();
                    let name = name();
                    Text::new(
                        format!("{}: only units of {en} may take part", name.en),
                        format!("{}:只能由{zh}部队参战", name.zh),
                    )
                })
            } else {
                PathsOfGlory::refuse_with("9.5.4.1.1", || {
                    let (en, zh) = named();
                    let name = name();
                    Text::new(
                        format!("{}: a unit of {en} must take part on your side", name.en),
                        format!("{}:己方须有{zh}部队参战", name.zh),
                    )
                })
            });
        }
    }
    for x in r.extras {
        extra(g, b, side, n, *x).map_err(|(en, zh)| {
            PathsOfGlory::refuse_with(&cite(), || {
                let name = name();
                Text::new(format!("{}: {en}", name.en), format!("{}:{zh}", name.zh))
            })
        })?;
    }
    Ok(())
}

fn extra(g: &PathsOfGlory, b: &Battle, side: Side, _n: u8, x: Extra) -> Result<(), (String, String)> {
    let data = g.data();
    let tables = g.tables();
    let fail = |en: &str, zh: &str| Err((en.to_string(), zh.to_string()));
    let terrain = &tables.terrain_of(data, b.defending).id;
    let country = data.facts(b.defending).nation.as_deref();
    let turn = tables.turn(g.pos.turn);
    match x {
        Extra::Years1914To1915 => {
            if turn.is_some_and(|t| t.year <= 1915) {
                Ok(())
            } else {
                fail("only in 1914 and 1915", "只能在1914至1915年使用")
            }
        }
        Extra::SevereWeather => {
            let season = turn.map(|t| t.season);
            let ok = (terrain == "mountain" && matches!(season, Some(Season::Fall | Season::Winter)))
                || (terrain == "swamp" && matches!(season, Some(Season::Spring | Season::Fall)));
            if ok {
                Ok(())
            } else {
                fail(
                    "only in a mountain space in Fall or Winter, or a swamp space in Spring or Fall",
                    "只能在秋冬的山地区域或春秋的沼泽区域使用",
                )
            }
        }
        Extra::Entrenched => {
            if g.pos.space(b.defending).trench.is_some() && trench_counts(g, b) {
                Ok(())
            } else {
                fail("the defenders are not in a trench", "防守方不在壕沟中")
            }
        }
        Extra::NoTrench => {
            if g.pos.space(b.defending).trench.is_none() {
                Ok(())
            } else {
                fail("the space already has a trench", "该区域已有壕沟")
            }
        }
        Extra::FrenchFort => {
            if country == Some("fr") && data.facts(b.defending).fort > 0 {
                Ok(())
            } else {
                fail("only for a fort space of France", "只能用于法国的要塞区域")
            }
        }
        Extra::ClearFranceBelgium => {
            if terrain == "clear" && matches!(country, Some("fr" | "be")) {
                Ok(())
            } else {
                fail(
                    "only against a clear space of France or Belgium",
                    "只能用于法国或比利时的开阔区域",
                )
            }
        }
        Extra::Clear => {
            if terrain == "clear" {
                Ok(())
            } else {
                fail("only against a clear space", "只能用于开阔区域")
            }
        }
        Extra::MountainToOrFrom => {
            let from_mountain = b
                .attackers
                .iter()
                .filter_map(|&u| g.at(u as usize))
                .any(|s| tables.terrain_of(data, s).id == "mountain");
            if terrain == "mountain" || from_mountain {
                Ok(())
            } else {
                fail(
                    "only for an attack into or out of a mountain space",
                    "只能用于进攻山地区域或从山地区域发动的进攻",
                )
            }
        }
        Extra::DefendersOnly(nat) => {
            let d = own_units(g, b, other(b.attacker));
            if !d.is_empty() && d.iter().all(|&u| of_nation(g, u, nat)) {
                Ok(())
            } else {
                let n = nat.name();
                Err((
                    format!("only against units of {} alone", n.en),
                    format!("只能用于仅有{}部队的区域", n.zh),
                ))
            }
        }
        Extra::DefendersInclude(nat) => {
            if own_units(g, b, other(b.attacker)).iter().any(|&u| of_nation(g, u, nat)) {
                Ok(())
            } else {
                let n = nat.name();
                Err((
                    format!("only against units of {}", n.en),
                    format!("只能用于进攻{}部队", n.zh),
                ))
            }
        }
        Extra::BritishArmyInFranceBelgium => {
            let army = own_units(g, b, side)
                .iter()
                .any(|&u| of_nation(g, u, Nation::Br) && data.pieces[u as usize].kind == Kind::Army);
            if army && matches!(country, Some("fr" | "be")) {
                Ok(())
            } else {
                fail(
                    "only for a British army defending in France or Belgium",
                    "只能用于在法国或比利时防守的英国集团军",
                )
            }
        }
        Extra::TurkishCf1 => {
            let ok = own_units(g, b, side).iter().any(|&u| {
                let p = &data.pieces[u as usize];
                let cf = if g.pos.units[u as usize].full {
                    p.full.cf
                } else {
                    p.reduced.cf
                };
                of_nation(g, u, Nation::Tu) && cf >= 1
            });
            if ok {
                Ok(())
            } else {
                fail(
                    "only with a Turkish defender of combat factor 1 or more",
                    "须有战斗力1以上的土耳其防守部队",
                )
            }
        }
        Extra::SuppliedThroughBasra => {
            let Some(basra) = data.space("basra") else {
                return fail("no Basra on the map", "地图上没有巴士拉");
            };
            let ctx = crate::sequence::supply_context(g);
            let ok = own_units(g, b, side)
                .iter()
                .filter(|&&u| of_nation(g, u, Nation::Br))
                .all(|&u| {
                    g.at(u as usize).is_some_and(|at| {
                        crate::supply::traces_through(
                            data,
                            &g.pos,
                            crate::supply::tracer_of(data, u as usize),
                            at,
                            basra,
                            &ctx,
                        )
                    })
                });
            if ok {
                Ok(())
            } else {
                fail(
                    "only for British units tracing their supply through Basra",
                    "只能用于经巴士拉获得补给的英军",
                )
            }
        }
        Extra::AlberichMay => {
            let ap = &g.pos.cards[side_index(Side::Ap)];
            if b.attacker != Side::Ap || !matches!(country, Some("fr" | "be")) {
                fail(
                    "only against an Allied attack in France or Belgium",
                    "只能用于协约国在法国或比利时的进攻",
                )
            } else if b.cards[side_index(Side::Ap)].contains(&48) || ap.removed.contains(&35) {
                fail(
                    "not once the Allies have played Royal Tank Corps (#48) in this combat or Yanks and Tanks (#35)",
                    "协约国已在本次会战打出“皇家坦克军”(#48)或已打出“美国坦克”(#35)时不能使用",
                )
            } else {
                Ok(())
            }
        }
        Extra::FlankAttempted => {
            if b.pinning.is_some() {
                Ok(())
            } else {
                fail(
                    "only after a flank attempt in this combat",
                    "只能在本次会战尝试挟击之后使用",
                )
            }
        }
        Extra::After(card, en, zh) => {
            if g.pos.cards[side_index(side)].removed.contains(&card) {
                Ok(())
            } else {
                Err((
                    format!("only after the event {en} (#{card})"),
                    format!("只能在事件“{zh}”(#{card})之后使用"),
                ))
            }
        }
        Extra::Before(card, en, zh) => {
            if g.pos.cards[side_index(side)].removed.contains(&card) {
                Err((
                    format!("not after the event {en} (#{card})"),
                    format!("事件“{zh}”(#{card})之后不能使用"),
                ))
            } else {
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::game::Game;

    /// 12.2.5: at every decision of random campaigns with a combat on, the units of each side
    /// found for the combat cards, from the units kept beside the game while a list is made and
    /// from the position otherwise, are those the position lists, in its order.
    #[test]
    fn the_units_in_a_combat_are_the_positions_with_or_without_the_kept_units() {
        let mut asked = 0u64;
        for seed in 0..4 {
            let mut g = PathsOfGlory::new_game("campaign", seed).expect("the campaign loads");
            let mut rng = sandtable_core::chance::Rng::from_seed(seed);
            sandtable_core::game::play_randomly_watching(&mut g, &mut rng, 600, |g: &PathsOfGlory| {
                let Some(b) = &g.action.battle else { return };
                let data = g.data();
                for side in [Side::Ap, Side::Cp] {
                    let fresh: Vec<u16> = if side == b.attacker {
                        b.attackers
                            .iter()
                            .copied()
                            .filter(|&u| matches!(g.pos.units[u as usize].loc, Location::Map(_)))
                            .collect()
                    } else {
                        g.pos
                            .units_in(b.defending)
                            .filter(|&u| data.pieces[u].side == side)
                            .map(|u| u as u16)
                            .collect()
                    };
                    assert_eq!(own_units(g, b, side), fresh);
                    let kept = g.supply_context().kept.expect("kept");
                    let _trust = kept.trust(data, &g.pos);
                    assert_eq!(own_units(g, b, side), fresh);
                    asked += 1;
                }
            })
            .expect("random play");
        }
        assert!(asked > 50, "{asked}");
    }
}
