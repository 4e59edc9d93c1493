// Element cards: the control-data counter each card is checked against, its label space and
// whether it has a label and a subtype keyword. The readers register the subtypes themselves.
#include "core/registry.hpp"

MBS_REGISTER_ELEMENT_CARD("joint", {"joints", "joint", true, true});
MBS_REGISTER_ELEMENT_CARD("body", {"rigid bodies", "body", true, false});
MBS_REGISTER_ELEMENT_CARD("force", {"forces", "force", true, true});
MBS_REGISTER_ELEMENT_CARD("couple", {"forces", "force", true, true});
MBS_REGISTER_ELEMENT_CARD("beam3", {"beams", "beam", true, false});
MBS_REGISTER_ELEMENT_CARD("beam2", {"beams", "beam", true, false});
MBS_REGISTER_ELEMENT_CARD("beam", {"beams", "beam", true, false});
MBS_REGISTER_ELEMENT_CARD("genel", {"genels", "genel", true, true});
MBS_REGISTER_ELEMENT_CARD("gravity", {"", "gravity", false, false});
MBS_REGISTER_ELEMENT_CARD("inertia", {"inertia", "inertia", true, false});
