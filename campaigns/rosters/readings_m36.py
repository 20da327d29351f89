"""The readings of the "1936" in-battle rules (fire, vehicles, assaults, morale, command,
bombardment, air, fog of war): one switch per option field of the rules' options
dataclasses, keyed "<group>_<field>" (see `m36_options`)."""

from __future__ import annotations

from django.utils.translation import gettext_noop as _

from campaigns.rosters.readings import Reading

YES = None  # an on/off reading


def _r(key, label, rule, help_text, default=False, choices=YES) -> Reading:
    return Reading(key, label, rule, help_text, default, choices)


M36_PLAY_READINGS: tuple[Reading, ...] = (
    _r(
        "fire_p_mods_in_cover_check",
        _("Fire modifiers' P column counts in the cover check"),
        "M36-VI.2.3",
        _(
            "On: flank, rear, exposed and aim add their P to P + R against the cover's "
            "Blindaje. Off: the cover check is P + R only, as step 2 is worded."
        ),
        True,
    ),
    _r(
        "vehicle_pe_loss_before_compare",
        _("A penetrating hit's −1 PE comes before comparing damage"),
        "M36-VI.3.1",
        _("On (the order of VI.3.1): lose 1 PE, then compare DF with PE. Off: compare first."),
        True,
    ),
    _r(
        "vehicle_pe_loss_on_no_effect",
        _("A penetrating hit with no effect still costs 1 PE"),
        "M36-VI.3.1 · XVI.6",
        _("On: VI.3.1's −1 PE always. Off: XVI.6 “sin efecto … ni pérdida de PE”."),
        True,
    ),
    _r(
        "vehicle_severe_table",
        _("Severe damage table"),
        "M36-VI.3.2 · X.2",
        _("Each procedure's own table (VI for fire, X for assaults), or always one of them."),
        "own",
        (("own", _("Each its own")), ("VI", _("Always VI")), ("X", _("Always X"))),
    ),
    _r(
        "vehicle_severe_bonus",
        _("What the severe damage d6 adds"),
        "M36-VI.3.2 · X.2",
        _("D + R (X.2, XVI.6), the weapon's D, or the final (doubled) damage (VI.3.2)."),
        "d_plus_r",
        (
            ("d_plus_r", _("D + R")),
            ("d", _("The weapon's D")),
            ("final_damage", _("The final damage")),
        ),
    ),
    _r(
        "vehicle_every_severe_result_loses_pe",
        _("Every severe damage result costs 1 PE"),
        "M36-XVI.6",
        _("Off: VI's table, only results 4–7 lose PE. On: XVI.6 “todos … −1 PE” for VI too."),
    ),
    _r(
        "vehicle_moved_26_29",
        _("Modifier for a target that moved 26–29 cm"),
        "M36-VI.3.1",
        _("The seed gives none: −2 (as up to 25 cm) or −3 (as 30 cm or more)."),
        "-2",
        (("-2", "−2"), ("-3", "−3")),
    ),
    _r(
        "vehicle_immobilise_at_equal_pe",
        _("Immobilised when the damage equals the structure"),
        "M36-VI.3.2 Inmovilizar",
        _("Off (the seed's “supere”): damage above PE. On: damage of PE or more."),
    ),
    _r(
        "vehicle_immobilise_needs_he",
        _("Aiming at tracks needs HE"),
        "M36-VI.3.2 Inmovilizar · X.4",
        _("On: fire needs HE ammunition to immobilise (VI.3.2). Off: any shot may try (X.4)."),
        True,
    ),
    _r(
        "assault_advantage_in_r",
        _("Assault advantage is already inside R"),
        "M36-IX.2.3",
        _("On (T26): each side's R includes its advantage. Off: the site adds the advantages."),
        True,
    ),
    _r(
        "assault_state_penalty_initiator_only",
        _("Pinned/Panicked penalty only for the assaulting unit"),
        "M36-IX.2.2",
        _("Off: −2/−3 to either side in that state. On: only to the side that assaults."),
    ),
    _r(
        "assault_cap_by_own_bases",
        _("Assault casualties capped by the bases that fight"),
        "M36-IX.2.4",
        _("Off: capped by the enemy's bases in contact. On: also by one's own bases."),
    ),
    _r(
        "assault_bases_add_to_vehicle_fa",
        _("Bases in contact add to FA against a vehicle"),
        "M36-X.2",
        _("On (T14): +1 per base in contact, as in IX.2.2. Off: FAC + R only."),
        True,
    ),
    _r(
        "morale_casualties_before_suppression",
        _("Casualties are taken before suppression"),
        "M36-XI.1",
        _("On: casualty points first, then suppression. Off: suppression first."),
        True,
    ),
    _r(
        "morale_suppression_back_every_turn",
        _("Suppression comes back every turn"),
        "M36-XI.1",
        _("Off (the seed): only when the unit was not fired upon that turn. On: always."),
    ),
    _r(
        "morale_panicked_casualty_per_point",
        _("A Panicked unit loses a casualty per suppression point"),
        "M36-XI.2",
        _("Off: 1 casualty per fire received. On: one per suppression point."),
    ),
    _r(
        "morale_panic_ends_with_morale",
        _("Panic ends when morale comes back"),
        "M36-XI.4",
        _("Off: only a Líder's regroup removes Panicked. On: morale above 0 ends it."),
    ),
    _r(
        "morale_destroyed_at_full_casualties",
        _("A unit that loses every casualty point is destroyed"),
        "M36-XI.8",
        _("On: destroyed at full casualties. Off: it stays on the table."),
        True,
    ),
    _r(
        "morale_pe_zero",
        _("A vehicle with no PE left"),
        "M36-VI.3 · XI.5",
        _("Destroyed, or out of action."),
        "destroyed",
        (("destroyed", _("Destroyed")), ("out_of_action", _("Out of action"))),
    ),
    _r(
        "morale_vehicle_recovery",
        _("Vehicle crews recover morale from Líder and Fanático"),
        "M36-XI.5",
        _("Off: crews do not recover. On: as infantry."),
    ),
    _r(
        "morale_panic_sight_is_temporary",
        _("Morale lost on seeing a friend panic comes back"),
        "M36-XI.2",
        _("Off: a permanent loss. On: counted as suppression."),
    ),
    _r(
        "morale_terror_is_temporary",
        _("Terror lasts only the turn"),
        "M36-III Terror",
        _("On: the −1 comes back at the end of the turn. Off: a permanent loss."),
        True,
    ),
    _r(
        "morale_decimate_guns",
        _("Guns are decimated too"),
        "M36-XI.8",
        _("Off: only infantry sections and individuals. On: guns as well."),
    ),
    _r(
        "command_command_rules",
        _("Which officer gives command coherence"),
        "M36-V.2",
        _(
            "“Mando” (the seed's word; no officer in the lists has it, so no unit is in "
            "coherence through an officer) or “Mando or Líder”."
        ),
        "mando",
        (("mando", _("Mando")), ("mando_or_lider", _("Mando or Líder"))),
    ),
    _r(
        "command_chain_blocked_by",
        _("What breaks a chain of command"),
        "M36-V.2",
        _("A link carrying suppression (the seed's “suprimida”), or a link Pinned or worse."),
        "suppression",
        (("suppression", _("Suppression")), ("pinned", _("Pinned"))),
    ),
    _r(
        "command_pinned_may_reorganise",
        _("A Pinned unit may reorganise"),
        "M36-V.5",
        _("Off: only Normal units start prolonged actions. On: Pinned units may reorganise."),
    ),
    _r(
        "command_disciplina_needs_comisario",
        _("Disciplina helps only Comisario units"),
        "M36-III Disciplina",
        _("On: only units with Comisario. Off: every unit in the officer's area."),
        True,
    ),
    _r(
        "command_prolonged_base_turns",
        _("Base length of a prolonged action"),
        "M36-V.5",
        _("Turns before the quality's ±: 1 (the seed's “toda la fase”) or 2."),
        "1",
        (("1", "1"), ("2", "2")),
    ),
    _r(
        "command_forced_retreat_needs_command",
        _("A forced retreat needs command coherence"),
        "M36-XI.3",
        _("Off: a Panicked unit retreats without coherence. On: it needs it."),
    ),
    _r(
        "bombard_negative_fa_is_zero",
        _("Negative bombardment FA counts as 0"),
        "M36-VII.5",
        _("On: suppression at least 1. Off: suppression max(0, FA + 1)."),
        True,
    ),
    _r(
        "bombard_variable_80cm_is_medium",
        _("Exactly 80 cm is medium range for Dispersión Variable"),
        "M36-VII.2",
        _("Off (the seed's “más allá de 80 cm”): short. On: medium."),
    ),
    _r(
        "bombard_parabolic_emplacements",
        _("Tiro Parabólico also reduces emplacements"),
        "M36-III Tiro Parabólico",
        _("Off: dug-in positions, houses, walls and hills only. On: nests and bunkers too."),
    ),
    _r(
        "air_ventisca_follows_text",
        _("Aircraft in Ventisca arrive late"),
        "M36-XV.2 · XV.3",
        _("Off (XV.3 table): no aircraft. On (XV.2 text): 2 turns late, as Nevada."),
    ),
    _r(
        "fog_near_ignores_los",
        _("A token near a revealed unit is revealed out of sight"),
        "M36-XIV.4",
        _("Off: every condition, sight included. On: within 2 squares is enough."),
    ),
    _r(
        "fog_defender_half_rounds_up",
        _("The defender deploys the larger half of an odd number of tokens"),
        "M36-XIV.2",
        _("On: the larger half. Off: the smaller."),
        True,
    ),
)
