"""A whole game between bots, each asked only what its seat decides, from what it can see.

The engine lists the legal actions; the arena splits them into decisions: an optional
power's holder uses it or passes, then every player a step waits for decides. A pass is
applied before anyone else is asked, since what the engine lists beyond a window can tell
hidden cards (past the Smart's window, the shots are resolved). Steps the rules play at
once (the bullet choice, the hold-up, courage) are decided by everyone from the same
moment, before anyone's choice is applied, as at a real table on "three!"; the Kid, who
aims after the others (R25), decides once they have.
"""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

from companion.bots.hands import Hands
from companion.bots.memory import Memory, Story
from companion.bots.styles import Bot, Option, Rule, kind_of_options
from companion.bots.view import SeatView, my_options
from companion.rules import Action, GameState, Setup, apply_in_place, legal_actions, new_game
from companion.rules.engine import pass_window, settle
from companion.rules.fastplay import (
    TAKEN,
    asked_at_step,
    below,
    by_seat,
    play_chosen,
    plays_chosen,
    taking_turn,
    took_chosen,
)
from companion.rules.phases import PHASE
from companion.rules.powers import DICTATOR
from companion.rules.split import forbid, may_forbid, take_options
from companion.rules.turn import forbids

# Optional powers the game waits for (R3); the Dictator's forbid is open beside the take.
WINDOWS = frozenset(("hustle", "swap", "privilege", "smart", "junk"))
# Those whose holder passes by letting the game go on (the others list a pass action).
PASS_BY_WAITING = frozenset(("swap", "smart", "junk", "forbid"))
# Steps whose choices the arena applies itself, without the handlers' checks, unless it
# checks (`fastplay.play_chosen`): those every player they wait for decides from the same
# moment, applied together, and a share of the split.
MAX_DECISIONS = 5000  # far more than a game takes (about 250 at 8 players)


class IllegalChoice(RuntimeError):
    """A bot chose an action the rules refuse now (only checked when asked for)."""


class Arena:
    """One game: the bots by player name, each with its own memory of the story."""

    def __init__(self, setup: Setup, bots: Mapping[str, Bot], checked: bool = False) -> None:
        if setup.loot_mode != "digital":
            raise ValueError("bots play with digital loot (the companion deals it)")
        self.state = new_game(setup)
        self.bots = bots
        self.checked = checked
        self.story = Story(setup.players)  # (every seat's memory of the story)
        self.actions = 0
        # the real cards each bot holds, when the companion sees none
        self.hands = Hands(setup.players, setup.seed) if setup.cards == "physical" else None
        self.rnds: list[Random] | None = None  # each seat's generator, for random bots
        # each seat's bot's rules and its one view (renewed for each decision; None for a
        # bot that looks at nothing), read at the first decision (`seat_rules`)
        self.seated: dict[str, tuple[dict[str, Rule], SeatView | None]] = {}

    def play(self) -> GameState:
        """Play to the end; returns the final state."""
        s = self.state
        self.rnds = rnds = None if self.checked else self.seat_generators()
        played: list[Action] = []
        for _ in range(MAX_DECISIONS):
            if self.hands is not None:
                self.hands.follow(s)
                self.hands.seen(self.story.memories())
            if s.over:
                return s
            if rnds is not None and by_seat(s, rnds, played):
                settle(s)
                self.actions += len(played)
                played.clear()
                continue
            actions = self.step_actions()
            for action in self.next_actions() if actions is None else actions:
                self.refuse_illegal(action)
                apply_in_place(s, action)
                self.actions += 1
        raise RuntimeError(f"the game did not end after {MAX_DECISIONS} decisions")

    def next_actions(self) -> list[Action]:
        """The actions decided now: one power used, or every choice of a step; none when
        an optional power was passed (the game has moved on: ask again)."""
        pending = legal_actions(self.state)
        window = _open_window(pending)
        if window is None:
            return self._step(pending, pending[0].type)
        kind, holder = window
        options: list[Option] = [*self.options_of(pending, kind, holder)]
        if kind in PASS_BY_WAITING:
            options.append(None)
        used = self.ask(holder, options)
        if used is not None:
            return [used]
        if kind in WINDOWS:  # passed for real: what comes next may hang on hidden cards
            pass_window(self.state, kind)
            return []
        return self._step([a for a in pending if a.type != kind], pending[0].type)

    def seat_generators(self) -> list[Random] | None:
        """Each seat's generator, if every bot draws uniformly among its options (the
        random bots): then the steps most actions are played in go the engine's fast
        path (`fastplay.by_seat`), each seat drawing as its bot would."""
        bots = [self.bots[p.name] for p in self.state.players]
        if not all(b.draws_uniformly for b in bots):
            return None
        return [b.rnd for b in bots]

    def seat_rules(self) -> dict[str, tuple[dict[str, Rule], SeatView | None]]:
        """Each seat's bot's rules (`Bot.rules`, as they stand at the game's first decision)
        and the one view the arena renews for each of its decisions (None for a bot that
        looks at nothing), looked up once a game instead of once a decision (`seated`)."""
        s, memory = self.state, self.story.shared
        self.seated = {name: (bot.rules, SeatView(s, name, memory, bot.needs_state)
                         if bot.needs_view else None) for name, bot in self.bots.items()}
        return self.seated

    def step_actions(self) -> list[Action] | None:
        """`next_actions` at the steps most decisions are made in (the bullet choice, the
        hold-up, courage, the split's turns), while no window is open: each seat's own
        options built from the step's own (the same, in the same order, as `options_of`
        finds among the legal actions), without listing everyone's. None elsewhere. At the
        steps `fastplay.plays_chosen` takes, the choices are applied here, and none is
        handed back; the split's turns are played here one after the other (`split_turns`)."""
        s = self.state
        if s.physical:
            return None
        if s.rests_at is not None:
            return self.window_actions(s.rests_at)
        asked = asked_at_step(s)
        if asked is None:
            if not taking_turn(s):
                return None
            self.split_turns()
            return []
        chosen = self.decide_together(asked)
        if plays_chosen(s) and not self.checked:
            played: list[Action] = []  # (every choice at once, as by_seat plays its draws)
            play_chosen(s, chosen, played)  # type: ignore[arg-type]  # (options hold no None)
            settle(s)
            self.actions += len(played)
            return []
        return [a for a in chosen if a is not None]

    def split_turns(self) -> None:
        """The split's turns while no window opens (`turn.taker`, as `fastplay.by_seat`
        plays them), each choice applied before the next is asked: the Dictator may forbid
        a kind first (as `next_actions` asks), then the taker takes one of its shares."""
        s, played, ask, checked = self.state, [], self.ask, self.checked
        players, dictated = s.players, DICTATOR in s.powers
        while s.turn is not None and s.junk_card is None and (s.table or s.token):
            p = players[s.turn]
            dictator = may_forbid(s) if dictated else None
            if dictator is not None:
                ban = ask(dictator.name, [*forbids(s, dictator), None])
                if ban is not None:
                    self.refuse_illegal(ban)
                    forbid(s, dictator, ban)  # type: ignore[arg-type]  # (one of `forbids`)
                    played.append(ban)
            row = TAKEN[p.name]  # (`turn.takes`, each share's action built once a game)
            share = ask(p.name, [*map(row.__getitem__, take_options(s, p))])
            if checked:
                self.refuse_illegal(share)  # type: ignore[arg-type]  # (a take: no pass)
            took_chosen(s, p, share, played)  # type: ignore[arg-type]  # (a take: no pass)
        settle(s)
        self.actions += len(played)

    def refuse_illegal(self, action: Action) -> None:
        """When asked for, refuse an action the rules do not list now."""
        s = self.state
        if self.checked and action not in legal_actions(s):
            raise IllegalChoice(f"{action} is not legal at round {s.round}, {s.phase}")

    def window_actions(self, kind: str) -> list[Action]:
        """`next_actions` at a resting window: its holder's own options, without listing
        the actions past it (those of a copy of the game with the window passed)."""
        s = self.state
        w = PHASE[s.phase].window_named[kind]
        holder = w.holder(s)
        assert holder is not None  # (`settle` rested there for it)
        offered = w.actions(s, holder)
        if kind == "hustle":
            offered = my_options(list(offered), holder.name, holder.bang, holder.click)
        passes = kind in PASS_BY_WAITING
        used: Option
        if self.rnds is not None:  # (a random bot's draw, as it draws, none built but it)
            n = len(offered) + passes
            i = below(self.rnds[holder.seat], n) if n > 1 else 0
            used = offered[i] if i < len(offered) else None
        else:
            used = self.ask(holder.name, [*offered, *([None] if passes else [])])
        if used is not None:
            return [used]
        pass_window(s, kind)
        return []

    def _step(self, pending: list[Action], kind: str) -> list[Action]:
        """Everyone this step waits for decides, all from the same moment."""
        players = dict.fromkeys(a.player for a in pending if a.type == kind)
        chosen = self.decide_together([(p, [*self.options_of(pending, kind, p)]) for p in players])
        return [a for a in chosen if a is not None]

    def decide_together(self, asked: list[tuple[str, list[Option]]]) -> list[Option]:
        """Each player's decision among their options, all from the same moment (nothing
        is applied until all have decided), read once: the story read once, each memory
        brought up to date once, and each seat's view renewed and handed straight to its
        bot's rule for the moment's kind (`Bot.rules`), not through `ask` and `decide` (the
        plain path, which tests/bots/test_arena_moment.py checks this against). Each view
        is its own seat's (its own hand, face-down card and loot, and its memory); the
        views of the seats with the same memory share the figures worked out from the
        table and that memory alone (`SeatView.shared`: the same for each of them, so
        worked out once). A seat with one option, or whose bot looks at nothing, gets none."""
        story, hands, seated = self.story, self.hands, self.seated or self.seat_rules()
        events = self.state.events
        if story.read < len(events):
            story.catch_up(events)
        own, common, learned = story.own, story.shared, len(story.learned)
        if common.heard < learned:
            common.hear()
        hand_of = None
        if hands is not None:  # (among the cards each holds, as `ask` offers them; each
            # choice kept in its hand once all have chosen: none changes another's hand)
            asked = [(name, hands.card_options(name, options)) for name, options in asked]
            hand_of = hands.hand_of
        everyone: dict[str, object] = {}  # (the figures the shared memory's seats share)
        shared_by: dict[Memory, dict[str, object]] = {common: everyone}
        chosen: list[Option] = []
        for name, options in asked:
            if len(options) < 2:
                chosen.append(options[0])
                continue
            rules, view = seated[name]  # (a moment's options: actions of one kind, no pass)
            rule = rules[options[0].type]  # type: ignore[union-attr]
            if view is None:
                chosen.append(rule(None, options))
                continue
            if own and name in own:  # (a memory of its own: it learned a secret)
                memory = own[name]
                shared = shared_by.get(memory)
                if shared is None:
                    if memory.heard < learned:
                        memory.hear()
                    shared = shared_by[memory] = {}
            else:
                memory, shared = common, everyone
            chosen.append(rule(view.renew(memory, None if hand_of is None else hand_of(name),
                                          shared), options))
        if hands is None:
            return chosen
        return [hands.play(name, choice) for (name, _), choice in zip(asked, chosen, strict=True)]

    def options_of(self, pending: list[Action], kind: str, name: str) -> list[Action]:
        """`name`'s options among `pending` actions of one kind, as its seat may know them."""
        p = self.state.players[self.state.index[name]]
        return my_options([a for a in pending if a.type == kind], name, p.bang, p.click)

    def ask(self, name: str, options: list[Option]) -> Option:
        """`name`'s decision among `options` (with physical cards: among the cards it
        holds, `Hands`; the game is given the action as a physical table enters it)."""
        hands = self.hands
        if hands is None:
            return options[0] if len(options) == 1 else self.decide(name, options)
        options = hands.card_options(name, options)
        return hands.play(name, options[0] if len(options) == 1 else self.decide(name, options))

    def decide(self, name: str, options: list[Option]) -> Option:
        """`name`'s bot deciding alone, from its view renewed now, by its rule for the
        options' kind (`Bot.rules`)."""
        rules, view = (self.seated or self.seat_rules())[name]
        rule = rules[kind_of_options(options)]
        if view is None:
            return rule(None, options)
        memory = self.story.memory_of(name, self.state.events)
        return rule(view.renew(memory, None if self.hands is None else self.hands.hand_of(name)),
                    options)

    @property
    def memories(self) -> dict[str, Memory]:
        """Each seat's memory, the story read up to now."""
        events = self.state.events
        return {name: self.story.memory_of(name, events) for name in self.state.index}


def _open_window(pending: list[Action]) -> tuple[str, str] | None:
    """The optional power listed first, and its holder; the Dictator's beside the take."""
    first = pending[0]
    if first.type in WINDOWS:
        return first.type, first.player
    forbid = next((a for a in pending if a.type == "forbid"), None)
    return None if forbid is None else ("forbid", forbid.player)
