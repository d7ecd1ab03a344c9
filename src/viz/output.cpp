#include "tessera/viz/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <iterator>

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

std::string errno_text(int err) { return std::strerror(err); }

[[noreturn]] void cannot_write(const std::string& path, const std::string& why) {
  throw Error("cannot write '" + path + "': " + why);
}

// write(2) until done; false with errno set on failure.
bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the descriptor N, or -1.
int named_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return 1;
  if (path == "/dev/stderr") return 2;
  for (const std::string_view prefix : {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
    if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = path.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::stoi(digits);
  }
  return -1;
}

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}
std::string name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Where `path` lands after following its symbolic links (each relative to the folder of
// the link that names it), and what is there.
struct Landing {
  std::string file;          // the final name (== path when no link was followed)
  int descriptor = -1;       // a named descriptor reached, else -1
  bool exists = false;
  struct stat st {};
  std::string last_link;     // the last link followed, for messages
};

Landing follow_links(const std::string& path) {
  Landing l;
  l.file = path;
  for (int hops = 0;; ++hops) {
    if ((l.descriptor = named_descriptor(l.file)) >= 0) return l;
    if (hops > 40) cannot_write(path, "too many levels of symbolic links");
    if (::lstat(l.file.c_str(), &l.st) != 0) {
      if (errno == ENOENT) return l;  // a new file (or a dangling link: see exists/last_link)
      cannot_write(path, errno_text(errno));
    }
    if (!S_ISLNK(l.st.st_mode)) {
      l.exists = true;
      return l;
    }
    std::string target(PATH_MAX + 1, '\0');
    const ssize_t n = ::readlink(l.file.c_str(), target.data(), target.size());
    if (n < 0) cannot_write(path, errno_text(errno));
    if (n == 0 || static_cast<std::size_t>(n) == target.size()) cannot_write(path, "the link '" + l.file + "' cannot be read");
    target.resize(static_cast<std::size_t>(n));
    l.last_link = l.file;
    l.file = target.front() == '/' ? target : parent_of(l.file) + "/" + target;
  }
}

// A signal arriving while a temporary file exists removes it, then kills the process
// with the signal's own status. Only async-signal-safe calls in the handler: unlink of
// the path built before the handler was armed, sigaction, raise.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
char g_temp_path[PATH_MAX + 1];
volatile std::sig_atomic_t g_temp_armed = 0;

extern "C" void remove_temp_and_die(int sig) {
  if (g_temp_armed) ::unlink(g_temp_path);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // pending until the handler returns (the signal is blocked in it), then fatal
}

sigset_t cleanup_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : kCleanupSignals) sigaddset(&set, s);
  return set;
}

// The temporary file beside the target: created with O_EXCL and registered with the
// signal handlers (signals blocked meanwhile, so none finds it half-registered);
// removed by the destructor unless committed.
class TempFile {
 public:
  TempFile(const std::string& target, const std::string& shown, mode_t mode) : shown_(shown) {
    static unsigned counter = 0;
    const std::string dir = parent_of(target);
    std::string base = name_of(target);
    if (base.size() > 200) base.resize(200);  // NAME_MAX is 255: leave room for the suffix
    const sigset_t set = cleanup_set();
    sigset_t old;
    ::sigprocmask(SIG_BLOCK, &set, &old);
    int err = 0;
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
      path_ = dir + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
      err = errno;
      if (fd_ < 0 && err != EEXIST) break;
    }
    if (fd_ >= 0 && path_.size() <= PATH_MAX) {
      std::memcpy(g_temp_path, path_.c_str(), path_.size() + 1);
      for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) {
        struct sigaction mine {};
        mine.sa_handler = remove_temp_and_die;
        sigemptyset(&mine.sa_mask);
        ::sigaction(kCleanupSignals[i], nullptr, &previous_[i]);
        // A signal the caller ignores (nohup) stays ignored.
        if (previous_[i].sa_handler != SIG_IGN) ::sigaction(kCleanupSignals[i], &mine, nullptr);
      }
      g_temp_armed = 1;
    }
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
    if (fd_ < 0) cannot_write(shown_, "cannot create a temporary file in '" + dir + "': " + errno_text(err));
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
    disarm();
  }
  int fd() const { return fd_; }
  // fsync, close, rename over `target`, then fsync the folder (best effort).
  void commit(const std::string& target) {
    if (::fsync(fd_) != 0) cannot_write(shown_, errno_text(errno));
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) cannot_write(shown_, errno_text(errno));
    if (::rename(path_.c_str(), target.c_str()) != 0) cannot_write(shown_, errno_text(errno));
    committed_ = true;
    disarm();
    const int dir = ::open(parent_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }

 private:
  void disarm() {
    if (!g_temp_armed) return;
    const sigset_t set = cleanup_set();
    sigset_t old;
    ::sigprocmask(SIG_BLOCK, &set, &old);
    g_temp_armed = 0;
    for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) ::sigaction(kCleanupSignals[i], &previous_[i], nullptr);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);
  }
  std::string shown_, path_;
  int fd_ = -1;
  bool committed_ = false;
  struct sigaction previous_[std::size(kCleanupSignals)] {};
};

// Why `file` must not be replaced, or "" when it may: a file nobody may write (no w bit at
// all) is refused for everybody, root included; for others, also a file the kernel would
// not let them open for writing (faccessat with their ids), though renaming over it would
// succeed in a folder they may write.
std::string read_only(const std::string& file, const struct stat& st) {
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  if ((st.st_mode & 0222) == 0) return std::string("read-only (mode ") + mode + ")";
  if (::geteuid() != 0 && ::faccessat(AT_FDCWD, file.c_str(), W_OK, AT_EACCESS) != 0 && errno == EACCES)
    return std::string("read-only for this user (mode ") + mode + ", owner uid " + std::to_string(st.st_uid) + ")";
  return "";
}

void write_to_descriptor(const std::string& path, int fd, std::string_view bytes) {
  if (::fcntl(fd, F_GETFD) < 0) cannot_write(path, "descriptor " + std::to_string(fd) + " is not open");
  std::cout.flush();  // what was printed before comes first
  std::fflush(nullptr);
  if (!write_all(fd, bytes)) {
    if (fd == 1) throw Error("cannot write to standard output: " + errno_text(errno));
    cannot_write(path, errno_text(errno));
  }
}

// A character device or FIFO: opened and written, never replaced.
void write_through(const std::string& path, const std::string& file, std::string_view bytes) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) cannot_write(path, errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISREG(st.st_mode)) {  // replaced by a file since we looked
    ::close(fd);
    cannot_write(path, "it changed while tessera was writing it");
  }
  const bool ok = write_all(fd, bytes);
  const int err = errno;
  if (::close(fd) != 0 && ok) cannot_write(path, errno_text(errno));
  if (!ok) cannot_write(path, errno_text(err));
}

}  // namespace

void write_output(const std::string& path, const std::function<std::string()>& produce) {
  if (path.empty()) throw Error("output file name is empty");
  const Landing l = follow_links(path);
  if (l.descriptor >= 0) {
    write_to_descriptor(path, l.descriptor, produce());
    return;
  }
  const std::string via = l.last_link.empty() ? "" : " (reached through the link '" + l.last_link + "')";
  if (!l.exists) {
    if (!l.last_link.empty())
      cannot_write(path, "it is a symbolic link to '" + l.file +
                             "', which does not exist (tessera does not create files through dangling links)");
    struct stat dir {};
    const std::string parent = parent_of(l.file);
    if (::stat(parent.c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode))
      cannot_write(path, "folder '" + parent + "' does not exist");
    TempFile tmp(l.file, path, 0666);  // the umask (and a default ACL) apply, as to any new file
    const std::string bytes = produce();
    if (!write_all(tmp.fd(), bytes)) cannot_write(path, errno_text(errno));
    tmp.commit(l.file);
    return;
  }
  const mode_t type = l.st.st_mode & S_IFMT;
  if (type == S_IFDIR) cannot_write(path, "it is a directory" + via);
  if (type == S_IFBLK) cannot_write(path, "it is a block device" + via + "; tessera writes only files, character devices and FIFOs");
  if (type == S_IFSOCK) cannot_write(path, "it is a socket" + via + "; tessera writes only files, character devices and FIFOs");
  if (type == S_IFCHR || type == S_IFIFO) {
    write_through(path, l.file, produce());
    return;
  }
  if (const std::string why = read_only(l.file, l.st); !why.empty())
    cannot_write(path, "it is " + why + via + "; make it writable or remove it first");
  TempFile tmp(l.file, path, 0600);
  const std::string bytes = produce();
  if (!write_all(tmp.fd(), bytes)) cannot_write(path, errno_text(errno));
  // The replacement keeps the file's owner (where allowed) and then its mode (chown may
  // clear set-id bits, so chmod comes second).
  struct stat now {};
  if (::fstat(tmp.fd(), &now) == 0 && (now.st_uid != l.st.st_uid || now.st_gid != l.st.st_gid))
    if (::fchown(tmp.fd(), l.st.st_uid, l.st.st_gid) != 0 && errno != EPERM) cannot_write(path, errno_text(errno));
  if (::fchmod(tmp.fd(), l.st.st_mode & 07777) != 0) cannot_write(path, errno_text(errno));
  tmp.commit(l.file);
}

void write_file_atomic(const std::string& path, std::string_view content) {
  write_output(path, [&] { return std::string(content); });
}

void render_to_file(const Diagram& d, Format f, const std::string& path) {
  if (is_text_format(f)) {
    write_output(path, [&] { return render_text(d, f); });
    return;
  }
#ifdef TESSERA_HAS_CAIRO
  write_output(path, [&] { return f == Format::png ? png_document(d) : pdf_document(d); });
#else
  throw Error(std::string(format_name(f)) + " output needs Cairo, which this build of tessera lacks: use svg or tex");
#endif
}

}  // namespace tessera::viz
