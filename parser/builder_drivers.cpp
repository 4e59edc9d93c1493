// The drivers block (docs/deck-language.md, "File drivers"): `file: L, fixed step | variable step,
// ...;` cards. The card's arguments are read by core/file_driver.cpp; here the data file is found
// (a relative name is relative to the folder of the file holding the card, as MBDyn, which
// changes into the folder of the deck and of each included file while reading it), read once into
// a SourceFile (so that errors in the data point at their line and column) and parsed into
// Model::file_drivers.
#include <filesystem>
#include <fstream>

#include "core/file_driver.hpp"
#include "parser/builder_impl.hpp"

namespace mbs::parser {

namespace fs = std::filesystem;

void Builder::driver_card(const std::string& name, DeckReader& r, const SourceLoc& at) {
    if (name != "file")
        throw InputError(at, "unknown card in the drivers block",
                         "expected 'file: <label>, fixed step | variable step, ...;'");
    SourceLoc card = r.card_loc();
    SourceLoc label_at = r.loc();
    long label = r.label("file driver label");
    claim_label("file driver", label, label_at, "file driver");
    count(r, "file drivers", at);
    FileDriverCard c = read_file_driver_card(r, label, card);
    r.finish();

    fs::path path(expand_env(c.file_name));
    if (path.is_relative() && c.file_loc.valid())
        path = fs::path(c.file_loc.file->path).parent_path() / path;
    const std::string p = path.lexically_normal().string();
    std::error_code ec;
    if (!fs::is_regular_file(p, ec))
        throw InputError(c.file_loc,
                         fs::exists(p, ec) ? "'" + p + "' is not a regular file"
                                           : "file driver data file '" + p + "' does not exist",
                         "a relative name is relative to the folder of the file with this card");
    constexpr std::uintmax_t max_bytes = std::uintmax_t{256} << 20;
    if (fs::file_size(p, ec) > max_bytes)
        throw InputError(c.file_loc, "'" + p + "' is larger than 256 MB");
    std::ifstream in(p, std::ios::binary);
    if (!in) throw InputError(c.file_loc, "cannot open '" + p + "'");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // Not kept with the deck's sources (those are parsed as cards again, e.g. by sweeps): an
    // InputError formats its location when thrown, so the text may go once it is parsed.
    const SourceFile data(p, std::move(text));
    st_.model.file_drivers[label] = std::make_shared<const FileDriver>(parse_file_driver(c, data));
}

}  // namespace mbs::parser
