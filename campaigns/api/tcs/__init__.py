"""TCS operations in the API: every action of the TCS pages (campaigns/views/tcs/), through
the same services, permission predicates and page forms.

- `operations`: create, read (turn, sides, what it waits for), start, next turn, end and
  withdraw, rule readings, timeline, export;
- `sides`: Command Prep settings, order of battle by form and CSV;
- `sheets`: op sheets (read, draw, correct, delete, reveal, fail, succeed, Prepared
  Defense, add and strike units, graphic);
- `command`: the Command Phase steps;
- `losses`: formations with morale and their corrections, losses, steps given back, the
  opponent's choice [17.1.c];
- `charts`: the operation's Morale, Fire, shift and AT Roll Tables (read, replace one);
- `combat`: fire with its preview, fire results applied by the target's owner, morale
  checks, recovery (a side's resolve panel) and the procedures resolved so far.

A side's op sheets, units, morale and Command Phase are visible to that side and a neutral
game master, to everyone once revealed or once the operation is over; anything else answers
404 and no error message names another side's secrets.
"""

from campaigns.api.tcs.artillery import ArtilleryViewSet
from campaigns.api.tcs.assault import AssaultViewSet
from campaigns.api.tcs.charts import ChartsViewSet
from campaigns.api.tcs.combat import CombatViewSet, ResolveViewSet
from campaigns.api.tcs.command import CommandPhaseViewSet
from campaigns.api.tcs.losses import DecisionViewSet, FormationViewSet, LossViewSet, UnitViewSet
from campaigns.api.tcs.minefields import MinefieldViewSet
from campaigns.api.tcs.operations import OperationViewSet
from campaigns.api.tcs.sheets import OpSheetViewSet
from campaigns.api.tcs.sides import SideViewSet


def register(router) -> None:
    """Add the TCS viewsets to the API router."""
    router.register("tcs/operations", OperationViewSet, basename="api-tcs-operation")
    router.register("tcs/sides", SideViewSet, basename="api-tcs-side")
    router.register("tcs/op-sheets", OpSheetViewSet, basename="api-tcs-sheet")
    router.register("tcs/formations", FormationViewSet, basename="api-tcs-formation")
    router.register("tcs/command-phases", CommandPhaseViewSet, basename="api-tcs-phase")
    router.register("tcs/units", UnitViewSet, basename="api-tcs-unit")
    router.register("tcs/losses", LossViewSet, basename="api-tcs-loss")
    router.register("tcs/decisions", DecisionViewSet, basename="api-tcs-decision")
    router.register("tcs/charts", ChartsViewSet, basename="api-tcs-charts")
    router.register("tcs/resolve", ResolveViewSet, basename="api-tcs-resolve")
    router.register("tcs/combats", CombatViewSet, basename="api-tcs-combat")
    router.register("tcs/minefields", MinefieldViewSet, basename="api-tcs-minefield")
    router.register("tcs/artillery", ArtilleryViewSet, basename="api-tcs-artillery")
    router.register("tcs/assaults", AssaultViewSet, basename="api-tcs-assault")
