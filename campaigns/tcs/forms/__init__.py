"""Forms for TCS operations, one module per concern (set-up, op sheets, the turn); the
views and the API read them all from here as `tf.<Form>`."""

from campaigns.tcs.forms.artillery import (  # noqa: F401
    AttackForm,
    BatteryDeleteForm,
    BatteryForm,
    MarkerRemoveForm,
    MissionForm,
    MortarRoundForm,
    StockForm,
)
from campaigns.tcs.forms.assault import AssaultAnswerForm, AssaultDeclareForm  # noqa: F401
from campaigns.tcs.forms.combat import (  # noqa: F401
    ArriveForm,
    FireApplyForm,
    FireForm,
    MoraleCheckForm,
    RecoverForm,
    UnitStateForm,
)
from campaigns.tcs.forms.minefields import BreachForm, EnterForm, PlaceForm  # noqa: F401
from campaigns.tcs.forms.setup import (  # noqa: F401
    DICE_CHOICES,
    LIGHT_CHOICES,
    MISSION_CHOICES,
    CsvImportForm,
    FormationForm,
    OperationForm,
    SideSettingsForm,
    UnitForm,
)
from campaigns.tcs.forms.sheets import (  # noqa: F401
    ROW_CHOICES,
    UNIT_MISSION_CHOICES,
    AddUnitsForm,
    DecisionForm,
    FailForm,
    PartialSuccessForm,
    PreparedDefenseForm,
    SheetDrawForm,
    SheetEditForm,
    SheetTextsForm,
    StrikeForm,
    UnitsChoiceMixin,
    prepared_defense_form,
)
from campaigns.tcs.forms.turn import (  # noqa: F401
    AdvanceForm,
    AlternativeForm,
    AttemptForm,
    CheckForm,
    CommitForm,
    ConfirmForm,
    CorrectionForm,
    DiceFormMixin,
    LossForm,
    RecoveryForm,
    RestoreForm,
    WeightedTurnsForm,
)
