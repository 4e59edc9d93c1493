#include "output/hdf5_error.hpp"

#include <hdf5.h>

namespace mbs::output {

std::string hdf5_error_reason() {
    std::string why;
    H5Ewalk2(
        H5E_DEFAULT, H5E_WALK_UPWARD,
        [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
            auto* s = static_cast<std::string*>(out);
            if (s->empty() && e->desc) *s = e->desc;
            return 0;
        },
        &why);
    // sec2's "file write failed: time = ..., filename = ..., errno = 28, error message = '...',
    // buf = ..., total write size = ...": the system's message is what a user can act on.
    const std::string key = "error message = '";
    if (auto b = why.find(key); b != std::string::npos) {
        b += key.size();
        why = why.substr(b, why.find('\'', b) - b);
    }
    return why;
}

}  // namespace mbs::output
