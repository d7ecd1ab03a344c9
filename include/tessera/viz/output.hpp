// Formats, and writing a diagram to a file atomically: the document goes to a
// temporary file in the target's directory and is renamed over the target only
// once complete, so a failure never leaves a half-written (or any) output file.
#pragma once

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

// Writes `content` to `path` atomically. Throws Error naming the path and the reason.
void write_file_atomic(const std::string& path, std::string_view content);

// Renders `d` in format `f` to `path`, atomically. Throws Error.
void render_to_file(const Diagram& d, Format f, const std::string& path);

}  // namespace tessera::viz
