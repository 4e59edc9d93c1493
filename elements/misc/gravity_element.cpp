// Uniform gravity (docs/deck-language.md 5.5): installs the field the bodies read; adds no
// equations.
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    if (d.props.get<std::string>("field") != "uniform")
        ctx.error(d, "only uniform gravity is supported by the time integrator");
    const auto& spec = d.props.get<std::shared_ptr<const TplDriveSpec>>("acceleration");
    ctx.set_gravity(TplDrive<3>::make(*spec, ctx.drive_env()));
    return nullptr;
}

}  // namespace

MBS_REGISTER_ELEMENT_RUNTIME("gravity", "", make);

}  // namespace mbs
