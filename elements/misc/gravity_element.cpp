// Card reader for `gravity` (docs/deck-language.md 5.5): a uniform gravity field.
//   gravity: [uniform,] <TplDC Vec3 acceleration>      e.g. gravity: 0., 0., -1., const, 9.81;
// The vector is global; `single, reference, <label>, v, <dc>` rotates it into the frame.
// The central field (`gravity: central, ...`) is not supported yet.
// Props: "field" ("uniform"), "acceleration" (template drive, m/s^2).
//
// Uniform gravity (docs/deck-language.md 5.5): installs the field the bodies read; adds no
// equations.
#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

void read_gravity(Reader& r, EntityDesc& e) {
    if (r.peek("central"))
        r.error("central gravity is not supported yet", "use 'gravity: uniform, ...'");
    r.accept("uniform");
    e.props.set("field", std::string("uniform"));
    e.props.set("acceleration", r.tpl_drive(3, "gravity acceleration"));
}

// Relative-coordinate path: uniform gravity only.
tree::LoadPart tree_gravity(const EntityDesc& d, const tree::Context&) {
    if (d.props.get_or<std::string>("field", "uniform") != "uniform")
        tree::unsupported(d, "only uniform gravity");
    return tree::Gravity{d.props.get<std::shared_ptr<const TplDriveSpec>>("acceleration")};
}

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    if (d.props.get<std::string>("field") != "uniform")
        ctx.error(d, "only uniform gravity is supported by the time integrator");
    const auto& spec = d.props.get<std::shared_ptr<const TplDriveSpec>>("acceleration");
    ctx.set_gravity(TplDrive<3>::make(*spec, ctx.drive_env()));
    return nullptr;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("gravity", "",
                          {.read = read_gravity, .make = make, .reduced = {.load = tree_gravity}});

}  // namespace mbs
