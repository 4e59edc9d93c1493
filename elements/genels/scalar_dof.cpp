// ScalarDof resolution (scalar_dof.hpp).
#include "elements/genels/scalar_dof.hpp"

namespace mbs::genels {

const Element* find_scalar_node(const DriveEnv& env, const EntityRef& ref) {
    if (!env.data.elements) return nullptr;
    for (const auto& e : *env.data.elements)
        if (e->label() == ref.label && e->desc().category == ref.category) return e.get();
    return nullptr;
}

ScalarDof resolve_dof(BuildContext& ctx, const EntityDesc& d, const cards::NodeDofSpec& dof) {
    const EntityRef& ref = dof.node;
    const long index = dof.index;
    ScalarDof s;
    s.what = ref.category + " node " + std::to_string(ref.label);
    if (ref.category == "structural") {
        StructNode& n = ctx.struct_node(ref, d);
        if (index > 3)
            ctx.error(d,
                      "dof " + std::to_string(index) + " of " + s.what +
                          " is a rotation parameter: not supported here",
                      "scalar elements act on the position components 1 to 3");
        s.node = &n;
        s.k = static_cast<int>(index - 1);
        return s;
    }
    const Element* e = find_scalar_node(ctx.drive_env(), ref);
    if (!e || e->own_dofs() != 1)
        ctx.error(d, s.what + " has no unknown at run time",
                  ref.category == "parameter" ? "parameter nodes have no degrees of freedom"
                                              : "only abstract scalar nodes are supported");
    s.owner = e;
    s.algebraic = e->own_dof_order(0) == DofOrder::algebraic;
    return s;
}

int dof_order(const cards::NodeDofSpec& dof) { return dof.order.value_or(0); }

}  // namespace mbs::genels
