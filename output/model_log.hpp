// The model description in PREFIX.log, in MBDyn's format: the lines MBDyn writes to its .log
// while it reads a deck (the EasyAnim converter var/mbdyn2easyanim.awk and the Blender add-on
// parse them):
//   structural node: <L> <x y z> <euler123|euler313|euler321|phi> <3 values>   (mat: 9 values)
//   structural node: <L> <x y z>                  (displacement-only node: no orientation)
//   relative frame structural node: <L> ...       (dummy node of type `relative frame`)
//   revolutehinge: <L> <n1> <f1> <R1h row-major> <n2> <f2> <R2h>   (and the other hinges)
//   body: <L> <node> <mass> <centre of mass> <inertia about it, row-major>
//   beam3: <L> <n1> <f1> <n2> <f2> <n3> <f3>, rod: <L> <n1> <f1> <n2> <f2>, ...
// Numbers as a C++ stream prints them by default (%g). Elements MBDyn writes no line for keep
// mbsolve's "<category>: <label> <type>" line. docs/output.md 1.1 lists the lines.
#pragma once

#include <cstdio>
#include <string>

#include "core/step_view.hpp"

namespace mbs::output {

// The node's .log line, without the newline.
std::string node_log_line(const StructNode& n, const std::string& default_orientation);
// The element's .log line (MBDyn's, else mbsolve's), without the newline.
std::string element_log_line(const Element& el);
// Every line: "output frequency", the nodes, the elements.
void write_model_log(std::FILE* f, const Model& m, const StepView& view);

}  // namespace mbs::output
