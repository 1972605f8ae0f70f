//! 16.0 War and Peace: each player's war commitment from his War Status (16.1), the armistice
//! (16.2.1), the US Commitment Track (16.3) and the Russian Capitulation Track (16.4). The
//! tracks move by themselves when their conditions come and go, and by the events that are
//! played on them; each says which of those events may be played now.

use serde::Serialize;

/// The markers the events of the US and Russian tracks leave behind (16.3, 16.4): which box a
/// track is in is read from the events played and the position (`events::russian_track`,
/// `events::us_track`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WarMarkers {
    /// The Tsar Fell CP Russian VP marker: the CP's Russian VP spaces when the Tsar fell, and
    /// the turn (16.4).
    pub tsar_fell: Option<(u8, u8)>,
    /// The turn Zimmermann Telegram (AP #54) was played (16.3: Over There on a later turn).
    pub zimmermann: Option<u8>,
    /// The turn Over There (AP #55) was played (16.3: US reinforcements on later turns).
    pub over_there: Option<u8>,
}

impl WarMarkers {
    /// No marker set: no event has left one.
    pub fn is_empty(&self) -> bool {
        *self == WarMarkers::default()
    }
}

/// A player's war commitment (16.1): which groups of his deck are in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Commitment {
    Mobilization,
    Limited,
    Total,
}

/// 16.1.3, 16.1.4: the commitment a War Status reaches, Limited War at 4, Total War at 11.
/// Both may be reached in one War Status Phase, and a commitment never goes down (16.1.5).
pub fn commitment(war_status: u8) -> Commitment {
    match war_status {
        0..=3 => Commitment::Mobilization,
        4..=10 => Commitment::Limited,
        _ => Commitment::Total,
    }
}

/// 16.2.1: a Combined War Status of 40 or more in the War Status Phase ends the game in an
/// armistice.
pub fn armistice(combined_war_status: u8) -> bool {
    combined_war_status >= 40
}

/// The boxes of the US Commitment Track (16.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum UsEntry {
    Neutral,
    /// Combined War Status has reached 30: Zimmermann Telegram (AP #54) may be played.
    ZimmermannAllowed,
    /// AP #54 played: the US is at war, its reinforcements not yet playable.
    Zimmermann,
    /// AP #55 played on a later turn: US reinforcements from the following turn; every Allied
    /// RP play gives one US RP more (17.1.8).
    OverThere,
}

/// 16.3: the US track after the Combined War Status changed (it never moves back).
pub fn us_entry(now: UsEntry, combined_war_status: u8) -> UsEntry {
    if now == UsEntry::Neutral && combined_war_status >= 30 {
        UsEntry::ZimmermannAllowed
    } else {
        now
    }
}

/// The boxes of the Russian Capitulation Track (16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[expect(clippy::enum_variant_names, reason = "the boxes are named as the track prints them")]
pub enum Tsar {
    GodSaveTheTsar,
    /// The CP holds 3 or more Russian VP spaces: Tsar Takes Command (CP #28) may be played.
    TsarTakesCommandAllowed,
    TsarTakesCommand,
    /// Combined War Status plus the CP's Russian VP spaces reach 33: Fall of the Tsar (CP #52)
    /// may be played.
    FallOfTheTsarAllowed,
    FallOfTheTsar,
    /// On a later turn, the CP holds more Russian VP spaces than when the Tsar fell, or all seven
    /// outside Baku: Bolshevik Revolution (CP #53) may be played.
    BolshevikRevolutionAllowed,
    BolshevikRevolution,
    /// CP #45 played.
    BrestLitovsk,
}

/// The events that move the Russian track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsarEvent {
    /// CP #28.
    TsarTakesCommand,
    /// CP #52.
    FallOfTheTsar,
    /// CP #53.
    BolshevikRevolution,
    /// CP #45.
    BrestLitovsk,
}

/// What the Russian track's conditions read now.
#[derive(Clone, Copy, Debug, Default)]
pub struct RussianFront {
    /// The Russian VP spaces the CP controls, supplied or not, Baku included (the Current CP
    /// Russian VP marker).
    pub cp_russian_vp: u8,
    /// Whether the CP controls all seven Russian VP spaces other than Baku.
    pub all_seven: bool,
    pub combined_war_status: u8,
    pub turn: u8,
}

/// The Russian Capitulation Track and the marker the Fall of the Tsar leaves (16.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RussianTrack {
    pub tsar: Tsar,
    /// The Tsar Fell CP Russian VP marker: the CP's Russian VP when the Tsar fell, and the turn.
    pub fell: Option<(u8, u8)>,
}

impl Default for RussianTrack {
    fn default() -> RussianTrack {
        RussianTrack {
            tsar: Tsar::GodSaveTheTsar,
            fell: None,
        }
    }
}

impl RussianTrack {
    /// Moves the track to the box its conditions give now: an "allowed" box is reached when its
    /// condition holds and left again when it stops holding before its event is played.
    pub fn update(&mut self, f: &RussianFront) {
        use Tsar::*;
        self.tsar = match self.tsar {
            GodSaveTheTsar | TsarTakesCommandAllowed => {
                if f.cp_russian_vp >= 3 {
                    TsarTakesCommandAllowed
                } else {
                    GodSaveTheTsar
                }
            }
            TsarTakesCommand | FallOfTheTsarAllowed => {
                if f.combined_war_status as u16 + f.cp_russian_vp as u16 >= 33 {
                    FallOfTheTsarAllowed
                } else {
                    TsarTakesCommand
                }
            }
            FallOfTheTsar | BolshevikRevolutionAllowed => match self.fell {
                Some((vp, turn)) if f.turn > turn && (f.cp_russian_vp > vp || f.all_seven) => {
                    BolshevikRevolutionAllowed
                }
                _ => FallOfTheTsar,
            },
            t => t,
        };
    }

    /// Whether an event of the track may be played now.
    pub fn may_play(&self, e: TsarEvent) -> bool {
        use Tsar::*;
        matches!(
            (e, self.tsar),
            (TsarEvent::TsarTakesCommand, TsarTakesCommandAllowed)
                | (TsarEvent::FallOfTheTsar, FallOfTheTsarAllowed)
                | (TsarEvent::BolshevikRevolution, BolshevikRevolutionAllowed)
                | (TsarEvent::BrestLitovsk, BolshevikRevolution)
        )
    }

    /// Records an event played; the Fall of the Tsar sets the Tsar Fell marker. An event that
    /// may not be played now changes nothing and answers `false`.
    /// (The game reads the track from the cards played: `events::russian_track`.)
    #[cfg(test)]
    pub fn play(&mut self, e: TsarEvent, f: &RussianFront) -> bool {
        if !self.may_play(e) {
            return false;
        }
        self.tsar = match e {
            TsarEvent::TsarTakesCommand => Tsar::TsarTakesCommand,
            TsarEvent::FallOfTheTsar => {
                self.fell = Some((f.cp_russian_vp, f.turn));
                Tsar::FallOfTheTsar
            }
            TsarEvent::BolshevikRevolution => Tsar::BolshevikRevolution,
            TsarEvent::BrestLitovsk => Tsar::BrestLitovsk,
        };
        true
    }
}
