// Cairo, loaded when a PNG or PDF is first drawn instead of when a program starts.
//
// Linking libcairo made every start of `tessera` (and every `import tessera`) load it and the
// twenty libraries it needs (X11, fontconfig, freetype, ...): most of the start of a command
// such as `tessera eval`, which never draws. The Cairo functions the backend calls are
// defined here instead; the first call of any of them opens the library (dlopen), and each
// forwards to the library's own function. Where Cairo cannot be opened at run time, drawing
// a PNG or PDF fails with viz::Error naming the library, and nothing else is affected.
#include <dlfcn.h>

#include <cairo-pdf.h>
#include <cairo.h>

#include <cstdlib>
#include <string>

#include "tessera/viz/error.hpp"

#ifndef TESSERA_CAIRO_LIBRARY
#error "TESSERA_CAIRO_LIBRARY (the library's file name, e.g. libcairo.so.2) is defined by src/viz/CMakeLists.txt"
#endif

namespace tessera::viz {
namespace {

// The library, opened once (and the reason when it cannot be: every drawing then says it).
// The environment variable TESSERA_CAIRO_LIBRARY, where set, names another file to open (a
// Cairo installed under another name or path).
struct Library {
  std::string name;
  void* handle = nullptr;
  std::string error;
};
const Library& cairo_library() {
  static const Library library = [] {
    Library l;
    const char* name = std::getenv("TESSERA_CAIRO_LIBRARY");
    l.name = name != nullptr && *name != '\0' ? name : TESSERA_CAIRO_LIBRARY;
    l.handle = dlopen(l.name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (l.handle == nullptr) {
      const char* why = dlerror();
      l.error = why ? why : "unknown reason";
    }
    return l;
  }();
  return library;
}

// The library's definition of `name`, of the type of our declaration of it.
template <class F>
F cairo_function(const char* name) {
  const Library& library = cairo_library();
  if (library.handle == nullptr)
    throw Error("cannot load Cairo (" + library.name + ") for PNG/PDF output: " + library.error);
  void* f = dlsym(library.handle, name);
  if (f == nullptr) throw Error("Cairo (" + library.name + ") has no function " + name);
  return reinterpret_cast<F>(f);
}

}  // namespace
}  // namespace tessera::viz

// NAME(PARAMS) forwards ARGS to the library's NAME, looked up once.
#define TESSERA_CAIRO(ret, name, params, args)                                                             \
  extern "C" ret name params {                                                                            \
    static const auto f = tessera::viz::cairo_function<decltype(&name)>(#name);                          \
    return f args;                                                                                        \
  }

TESSERA_CAIRO(cairo_t*, cairo_create, (cairo_surface_t * target), (target))
TESSERA_CAIRO(void, cairo_destroy, (cairo_t * cr), (cr))
TESSERA_CAIRO(cairo_status_t, cairo_status, (cairo_t * cr), (cr))
TESSERA_CAIRO(const char*, cairo_status_to_string, (cairo_status_t status), (status))
TESSERA_CAIRO(void, cairo_save, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_restore, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_scale, (cairo_t * cr, double sx, double sy), (cr, sx, sy))
TESSERA_CAIRO(void, cairo_translate, (cairo_t * cr, double tx, double ty), (cr, tx, ty))
TESSERA_CAIRO(void, cairo_move_to, (cairo_t * cr, double x, double y), (cr, x, y))
TESSERA_CAIRO(void, cairo_line_to, (cairo_t * cr, double x, double y), (cr, x, y))
TESSERA_CAIRO(void, cairo_rectangle, (cairo_t * cr, double x, double y, double width, double height),
              (cr, x, y, width, height))
TESSERA_CAIRO(void, cairo_fill, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_fill_preserve, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_stroke, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_paint, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_set_line_width, (cairo_t * cr, double width), (cr, width))
TESSERA_CAIRO(void, cairo_set_line_cap, (cairo_t * cr, cairo_line_cap_t line_cap), (cr, line_cap))
TESSERA_CAIRO(void, cairo_set_source_rgb, (cairo_t * cr, double red, double green, double blue),
              (cr, red, green, blue))
TESSERA_CAIRO(void, cairo_set_source_surface, (cairo_t * cr, cairo_surface_t* surface, double x, double y),
              (cr, surface, x, y))
TESSERA_CAIRO(cairo_pattern_t*, cairo_get_source, (cairo_t * cr), (cr))
TESSERA_CAIRO(void, cairo_pattern_set_filter, (cairo_pattern_t * pattern, cairo_filter_t filter), (pattern, filter))
TESSERA_CAIRO(void, cairo_select_font_face,
              (cairo_t * cr, const char* family, cairo_font_slant_t slant, cairo_font_weight_t weight),
              (cr, family, slant, weight))
TESSERA_CAIRO(void, cairo_set_font_size, (cairo_t * cr, double size), (cr, size))
TESSERA_CAIRO(void, cairo_text_extents, (cairo_t * cr, const char* utf8, cairo_text_extents_t* extents),
              (cr, utf8, extents))
TESSERA_CAIRO(void, cairo_show_text, (cairo_t * cr, const char* utf8), (cr, utf8))
TESSERA_CAIRO(cairo_surface_t*, cairo_image_surface_create, (cairo_format_t format, int width, int height),
              (format, width, height))
TESSERA_CAIRO(unsigned char*, cairo_image_surface_get_data, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(int, cairo_image_surface_get_stride, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(void, cairo_surface_destroy, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(void, cairo_surface_finish, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(void, cairo_surface_flush, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(void, cairo_surface_mark_dirty, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(cairo_status_t, cairo_surface_status, (cairo_surface_t * surface), (surface))
TESSERA_CAIRO(cairo_status_t, cairo_surface_write_to_png_stream,
              (cairo_surface_t * surface, cairo_write_func_t write_func, void* closure), (surface, write_func, closure))
TESSERA_CAIRO(cairo_surface_t*, cairo_pdf_surface_create_for_stream,
              (cairo_write_func_t write_func, void* closure, double width_in_points, double height_in_points),
              (write_func, closure, width_in_points, height_in_points))
TESSERA_CAIRO(void, cairo_pdf_surface_set_metadata,
              (cairo_surface_t * surface, cairo_pdf_metadata_t metadata, const char* utf8), (surface, metadata, utf8))

#undef TESSERA_CAIRO
