// A result file that cannot be created or written (missing directory, no permission, disk
// full): mbsolve reports it without the "internal error" label and exits with status 2.
#pragma once

#include <stdexcept>

namespace mbs::output {

class OutputError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace mbs::output
