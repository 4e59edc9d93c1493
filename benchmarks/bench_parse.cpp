// Parse + build benchmark: a generated chain deck with ~10,000 cards (nodes, bodies, revolute
// hinges, a reference frame per node), read with build_model_from_text; prints the best of 5.
// Target (issue 2): under 1 s for 10,000 cards.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "parser/builder.hpp"

int main(int argc, char** argv) {
    int links = argc > 1 ? std::atoi(argv[1]) : 2500;
    std::ostringstream d;
    d << "set: const integer N = " << links
      << ";\nset: const real L = 1./N;\nset: const real M = 1./N;\n"
      << "begin: data; problem: initial value; end: data;\n"
      << "begin: initial value; initial time: 0.; final time: 1.; time step: 1.e-3; method: ms, "
         ".6;\n"
      << "  tolerance: 1e-6; max iterations: 20; end: initial value;\n"
      << "begin: control data; structural nodes: " << links + 1 << "; rigid bodies: " << links
      << "; joints: " << links + 1 << "; end: control data;\n";
    for (int i = 0; i <= links; ++i)
        d << "reference: " << i << ", reference, global, " << i << "*L, 0., 0., euler123, 0., 0., "
          << i << "*1.e-3, reference, global, null, reference, global, 0., 0., 0.1;\n";
    d << "begin: nodes;\n  structural: 0, static, null, eye, null, null;\n";
    for (int i = 1; i <= links; ++i)
        d << "  structural: " << i << ", dynamic, reference, " << i << ", null, reference, " << i
          << ", eye, reference, " << i << ", null, reference, " << i << ", null;\n";
    d << "end: nodes;\nbegin: elements;\n  joint: 0, clamp, 0, node, node;\n";
    for (int i = 1; i <= links; ++i)
        d << "  joint: " << i << ", revolute hinge, " << i - 1 << ", reference, " << i
          << ", -0.5*L, 0., 0., orientation, reference, global, eye, " << i << ", reference, " << i
          << ", -0.5*L, 0., 0., orientation, reference, global, eye;\n"
          << "  body: " << i << ", " << i << ", M, null, diag, 1.e-6, M*L^2/12., M*L^2/12.;\n";
    d << "end: elements;\n";
    std::string text = d.str();
    long cards = std::count(text.begin(), text.end(), ';');
    double best = 1e30;
    mbs::parser::BuildOptions o;
    o.echo_warnings = false;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        mbs::Model m = mbs::parser::build_model_from_text("bench.mbd", text, o);
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::min(best, s);
        if (m.elements.size() != static_cast<std::size_t>(2 * links + 1)) return 1;
    }
    std::printf("parse+build: %ld cards (%zu bytes) in %.3f s (best of 5), %.1f us/card\n", cards,
                text.size(), best, 1e6 * best / cards);
    return 0;
}
