"""Forms of the roster and skirmish pages, one module per concern; the views read them
all from here as `rf.<Form>`."""

from campaigns.rosters.forms.common import (  # noqa: F401
    ROLE_CHOICES,
    DiceForm,
    say_lazy,
)
from campaigns.rosters.forms.m36_play import (  # noqa: F401
    AirAttackForm,
    BombardForm,
    CommandCheckForm,
    FireForm,
    InitiativeForm,
    OrderForm,
    RecoverForm,
    RevealForm,
    SmokeForm,
    UnitCorrectForm,
    UnitsSetupForm,
    VehicleAssaultForm,
)
from campaigns.rosters.forms.m36_play import AssaultForm as M36AssaultForm  # noqa: F401
from campaigns.rosters.forms.m1936 import (  # noqa: F401
    BogForm,
    ConditionForm,
    ConstructionForm,
    FortificationForm,
    M36FinishForm,
    MoraleForm,
    PerformanceForm,
    PlanForm,
    ScenarioForm,
    TieForm,
    WeatherChangeForm,
    WeatherForm,
)
from campaigns.rosters.forms.parabellum import (  # noqa: F401
    AssaultForm,
    BombardmentForm,
    CasualtyForm,
    CorrectionForm,
    GrenadeForm,
    ProjectorForm,
    ShotForm,
    SupportForm,
    TacticalForm,
    TurnForm,
    soldier_field,
)
from campaigns.rosters.forms.pb_play import (  # noqa: F401
    ActForm,
    ActivateForm,
    AnticipateForm,
    ChooseFirstForm,
    DownedForm,
    FinishPhaseForm,
    RoleRollForm,
    TendForm,
)
from campaigns.rosters.forms.play import ReadingsForm, UndoForm  # noqa: F401
from campaigns.rosters.forms.rosters import (  # noqa: F401
    JoinForm,
    M36EditForm,
    M36HouseRulesForm,
    OrdersForm,
    PBEditForm,
    PBHouseRulesForm,
    RosterCreateForm,
    RosterSettingsForm,
    SkirmishCreateForm,
)
