// Card reader for `gravity` (docs/deck-language.md 5.5): a uniform gravity field.
//   gravity: [uniform,] <TplDC Vec3 acceleration>      e.g. gravity: 0., 0., -1., const, 9.81;
// The vector is global; `single, reference, <label>, v, <dc>` rotates it into the frame.
// The central field (`gravity: central, ...`) is not supported yet.
// Typed spec: GravitySpec (below): the field ("uniform") and the acceleration (template drive,
// m/s^2); its generic view: "field", "acceleration".
//
// Uniform gravity (docs/deck-language.md 5.5): installs the field the bodies read; adds no
// equations.
#include <memory>
#include <string>

#include "core/registry.hpp"
#include "core/tree_edge.hpp"
#include "elements/misc/element_util.hpp"

namespace mbs {
namespace {

struct GravitySpec final : ElementSpec {
    std::string field = "uniform";
    std::shared_ptr<const TplDriveSpec> acceleration;
    void describe(Props& p) const override {
        p.set("field", field);
        p.set("acceleration", acceleration);
    }
};

void read_gravity(Reader& r, EntityDesc& e) {
    if (r.peek("central"))
        r.error("central gravity is not supported yet", "use 'gravity: uniform, ...'");
    r.accept("uniform");
    auto s = std::make_shared<GravitySpec>();
    s->acceleration = r.tpl_drive(3, "gravity acceleration");
    e.spec = std::move(s);
}

// Relative-coordinate path: uniform gravity only.
tree::LoadPart tree_gravity(const EntityDesc& d, const tree::Context&) {
    const auto& spec = d.spec_as<GravitySpec>();
    if (spec.field != "uniform") tree::unsupported(d, "only uniform gravity");
    return tree::Gravity{spec.acceleration};
}

std::unique_ptr<Element> make(const EntityDesc& d, BuildContext& ctx) {
    const auto& spec = d.spec_as<GravitySpec>();
    if (spec.field != "uniform")
        ctx.error(d, "only uniform gravity is supported by the time integrator");
    ctx.set_gravity(TplDrive<3>::make(*spec.acceleration, ctx.drive_env()));
    return nullptr;
}

}  // namespace

MBS_REGISTER_ELEMENT_KIND("gravity", "",
                          {.read = read_gravity, .make = make, .reduced = {.load = tree_gravity}});

}  // namespace mbs
