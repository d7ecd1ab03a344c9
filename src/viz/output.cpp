#include "tessera/viz/output.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>

#include "tessera/viz/backends.hpp"
#ifdef TESSERA_HAS_CAIRO
#include "tessera/viz/cairo_backend.hpp"
#endif

namespace tessera::viz {

namespace fs = std::filesystem;

std::optional<Format> format_from_name(std::string_view n) {
  if (n == "txt" || n == "text") return Format::txt;
  if (n == "svg") return Format::svg;
  if (n == "tex" || n == "tikz") return Format::tex;
  if (n == "png") return Format::png;
  if (n == "pdf") return Format::pdf;
  if (n == "html" || n == "htm") return Format::html;
  return std::nullopt;
}

std::optional<Format> format_from_path(std::string_view path) {
  const std::string ext = fs::path(std::string(path)).extension().string();
  if (ext.size() < 2) return std::nullopt;
  std::string lower;
  for (char c : ext.substr(1)) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (lower == "text" || lower == "tikz") return std::nullopt;  // names, not extensions
  return format_from_name(lower);
}

std::string_view format_name(Format f) {
  switch (f) {
    case Format::txt: return "txt";
    case Format::svg: return "svg";
    case Format::tex: return "tex";
    case Format::png: return "png";
    case Format::pdf: return "pdf";
    case Format::html: return "html";
  }
  return "?";
}

bool is_text_format(Format f) { return f != Format::png && f != Format::pdf; }

bool has_cairo() {
#ifdef TESSERA_HAS_CAIRO
  return true;
#else
  return false;
#endif
}

std::string render_text(const Diagram& d, Format f) {
  switch (f) {
    case Format::txt: return to_text(d);
    case Format::svg: return to_svg(d);
    case Format::tex: return to_tikz(d);
    case Format::html: return to_html(d);
    default: throw Error(std::string(format_name(f)) + " is not a text format");
  }
}

namespace {
// A name beside the target, unique to this process and call.
std::string temp_path_for(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const fs::path p(path);
  const std::string name = "." + p.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                           std::to_string(counter.fetch_add(1));
  return (p.parent_path() / name).string();
}

void check_target(const std::string& path) {
  if (path.empty()) throw Error("output file name is empty");
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) throw Error("cannot write '" + path + "': it is a directory");
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec)) throw Error("cannot write '" + path + "': folder '" + dir.string() + "' does not exist");
}

// Runs `produce(temp)`, then renames temp over path; removes temp on any failure.
void commit_atomic(const std::string& path, const std::function<void(const std::string&)>& produce) {
  check_target(path);
  const std::string tmp = temp_path_for(path);
  try {
    produce(tmp);
  } catch (...) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ec2;
    fs::remove(tmp, ec2);
    throw Error("cannot write '" + path + "': " + ec.message());
  }
}
}  // namespace

void write_file_atomic(const std::string& path, std::string_view content) {
  commit_atomic(path, [&](const std::string& tmp) {
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw Error("cannot write '" + path + "': " + std::strerror(errno));
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    const int err = errno;
    const bool closed = std::fclose(f) == 0;
    if (!ok || !closed) throw Error("cannot write '" + path + "': " + std::strerror(ok ? errno : err));
  });
}

void render_to_file(const Diagram& d, Format f, const std::string& path) {
  if (is_text_format(f)) {
    write_file_atomic(path, render_text(d, f));
    return;
  }
#ifdef TESSERA_HAS_CAIRO
  commit_atomic(path, [&](const std::string& tmp) {
    if (f == Format::png) write_png(d, tmp);
    else write_pdf(d, tmp);
  });
#else
  throw Error(std::string(format_name(f)) + " output needs Cairo, which this build of tessera lacks: use svg or tex");
#endif
}

}  // namespace tessera::viz
