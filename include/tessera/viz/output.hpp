// Formats, and writing a document to an output path without ever destroying what the
// path names (the policy; tests/cli/output_safety_test.sh checks each line):
//  - a new file, or an existing regular file, is written to a temporary file beside it
//    (created with O_EXCL, fsync'd) and renamed over it only once complete: a failure
//    or a SIGINT/SIGTERM/SIGHUP leaves neither a half-written target nor the temporary;
//    a replaced file keeps its permission bits, and its owner and group where the
//    process may set them (as root, or when they are already the process's);
//  - a regular file that nobody may write (no w bit, e.g. mode 444) is refused, also for
//    root, who could replace it: it was made read-only on purpose (cp without -f refuses
//    such a file for a user; tessera does not rely on the kernel's check, which root skips);
//    a user other than root is also refused a file the kernel would not let them open for
//    writing (someone else's 644 file), though renaming over it would succeed;
//  - a symbolic link is followed (chains too): the file it finally names is replaced, the
//    link stays a link; a dangling link is refused, as cp refuses to write through one;
//  - a character device or a FIFO is written through (opened and written, never
//    replaced); a block device or a socket is refused; a directory too;
//  - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (also reached through a
//    link) are the process's descriptor N, written directly (after flushing stdout).
// A file with several hard links is replaced under the followed name only, as with mv.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tessera/viz/error.hpp"
#include "tessera/viz/model.hpp"

namespace tessera::viz {

enum class Format { txt, svg, tex, png, pdf, html };

// "txt"/"text", "svg", "tex"/"tikz", "png", "pdf", "html".
std::optional<Format> format_from_name(std::string_view name);
// From a file name's extension (.txt .svg .tex .png .pdf .html), case-insensitive.
std::optional<Format> format_from_path(std::string_view path);
std::string_view format_name(Format f);
// Text formats may go to standard output; png/pdf need a file.
bool is_text_format(Format f);
// True when this build has the Cairo backends (PNG, PDF).
bool has_cairo();

// The document for a text format (txt, svg, tex, html).
std::string render_text(const Diagram& d, Format f);

// Writes the document `produce()` returns to `path` as the policy above says. `produce`
// runs after the temporary file exists (so a long render is covered by the signal
// handlers, and an unwritable folder is reported before the work) and before a device
// or FIFO is opened. Throws Error naming the path and the reason; what `produce`
// throws is passed on, with the temporary removed.
void write_output(const std::string& path, const std::function<std::string()>& produce);

// write_output with a ready document.
void write_file_atomic(const std::string& path, std::string_view content);

// Renders `d` in format `f` to `path` (write_output). Throws Error.
void render_to_file(const Diagram& d, Format f, const std::string& path);

}  // namespace tessera::viz
