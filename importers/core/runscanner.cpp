#include "importers/core/runscanner.h"

#include "importers/core/filesniffer.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace runlens::importers {

namespace {

QString fromBytes(const std::string& bytes)
{
    return QFile::decodeName(QByteArray(bytes.data(), qsizetype(bytes.size())));
}

QString errnoText(int error)
{
    return qt_error_string(error);
}

using StatBuffer = struct stat;

/// `root/rel` as bytes; `root` may be "/".
std::string underRoot(const std::string& root, const std::string& rel)
{
    if (rel.empty())
        return root;
    return !root.empty() && root.back() == '/' ? root + rel : root + '/' + rel;
}

bool isSummaryStream(models::ArtifactKind kind)
{
    return models::isSummaryKind(kind) || kind == models::ArtifactKind::MindSporeLineage
        || kind == models::ArtifactKind::VisualDlLog;
}

/// Scalars other loggers write: like event files, their folder is their run.
bool isLoggerStream(models::ArtifactKind kind)
{
    return kind == models::ArtifactKind::Table || kind == models::ArtifactKind::TrainerState
        || kind == models::ArtifactKind::MlflowRun || kind == models::ArtifactKind::GpuMetricsLog
        || kind == models::ArtifactKind::WandbRun;
}

struct FileKey
{
    dev_t dev;
    ino_t ino;
    bool operator==(const FileKey& other) const { return dev == other.dev && ino == other.ino; }
};

struct FileKeyHash
{
    std::size_t operator()(const FileKey& key) const
    {
        return std::hash<quint64>()(quint64(key.ino) * 0x9E3779B97F4A7C15ull ^ quint64(key.dev));
    }
};

struct FoundFile
{
    std::string rel; ///< '/'-separated path below the root, as bytes
    std::size_t dirLength = 0; ///< length of the directory part of `rel` (0 for files in the root)
    SniffResult sniff;
    qint64 size = 0;
    qint64 mtimeMs = 0;
    FileKey key {};
    bool viaSymlink = false;
};

qint64 mtimeMsOf(const StatBuffer& st)
{
    return qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

/// Opens a file for reading without touching its access time where the system allows it.
int openForReading(int dirFd, const char* name)
{
    const int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
#ifdef O_NOATIME
    const int fd = ::openat(dirFd, name, flags | O_NOATIME);
    if (fd >= 0 || errno != EPERM)
        return fd;
#endif
    return ::openat(dirFd, name, flags);
}

/// Reads up to `size` bytes from the start of the file, retrying short reads.
qint64 readHead(int fd, char* buffer, std::size_t size)
{
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pread(fd, buffer + done, size - done, off_t(done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return done > 0 ? qint64(done) : -1;
        }
        if (n == 0)
            break;
        done += std::size_t(n);
    }
    return qint64(done);
}

/// The walk itself: POSIX directory streams opened relative to their parent (no path rebuilding, one
/// `openat` + `fstat` + `pread` per candidate file, no stat at all for files whose names rule them out).
class Walker
{
public:
    Walker(const RunScanner::Options& options, const ImportControl& control, models::RunManifest& manifest,
           std::string rootBytes, std::string rootName)
        : m_options(options)
        , m_control(control)
        , m_manifest(manifest)
        , m_rootBytes(std::move(rootBytes))
        , m_rootName(std::move(rootName))
        , m_head(FileSniffer::kLongHeadSize)
    { }

    void walkRoot(int rootFd);
    void sniffSingleFile(int dirFd, const std::string& name);

    std::vector<FoundFile>& files() { return m_files; }

private:
    struct Frame
    {
        DIR* dir;
        std::string rel; ///< "" for the root
        std::string context; ///< root name + rel, for profiler-folder detection
        int depth;
    };
    struct Deferred
    {
        std::string rel;
        int depth;
    };

    void walkTree(int fd, std::string rel, int depth);
    bool admitEntry(const std::string& dirRel);
    void enterDirectory(int parentFd, const char* name, const std::string& rel, int depth);
    void visitFile(int dirFd, const char* name, const Frame& frame, bool viaSymlink);
    void noteTooDeep(const std::string& rel);
    void reportProgress();
    QString absolute(const std::string& rel) const { return fromBytes(underRoot(m_rootBytes, rel)); }
    static std::string join(const std::string& dir, const char* name)
    {
        return dir.empty() ? std::string(name) : dir + '/' + name;
    }
    void diagnose(models::Severity severity, const QString& file, const QString& message)
    {
        m_manifest.diagnostics.append(models::Diagnostic { severity, file, -1, -1, message });
    }

    const RunScanner::Options& m_options;
    const ImportControl& m_control;
    models::RunManifest& m_manifest;
    const std::string m_rootBytes;
    const std::string m_rootName;

    std::vector<char> m_head;
    std::vector<FoundFile> m_files;
    std::unordered_map<FileKey, std::string, FileKeyHash> m_visitedDirs; ///< directory -> rel where entered
    std::deque<Deferred> m_deferred; ///< symbolic links to directories, entered after the real tree
    std::vector<Frame> m_stack;
    bool m_stop = false;
    int m_tooDeep = 0;
    std::string m_firstTooDeep;
    qint64 m_rootEntries = 0;
    qint64 m_rootEntriesDone = 0;
    int m_lastPermille = -1;
};

bool Walker::admitEntry(const std::string& dirRel)
{
    if (m_control.canceled()) {
        m_stop = true;
        m_manifest.truncated = true;
        diagnose(models::Severity::Info, absolute({}),
                 QCoreApplication::translate("runlens::importers::RunScanner",
                                             "The scan of %1 was canceled; the list of files is incomplete.")
                     .arg(absolute({})));
        return false;
    }
    if (m_manifest.entriesVisited >= m_options.maxEntries) {
        m_stop = true;
        m_manifest.truncated = true;
        diagnose(models::Severity::Warning, absolute({}),
                 QCoreApplication::translate(
                     "runlens::importers::RunScanner",
                     "Stopped after %1 entries: %2 holds more than the scan limit, files after %3 were not listed. "
                     "Open a subfolder to see the rest.")
                     .arg(m_manifest.entriesVisited)
                     .arg(absolute({}), absolute(dirRel)));
        return false;
    }
    ++m_manifest.entriesVisited;
    return true;
}

void Walker::noteTooDeep(const std::string& rel)
{
    if (m_tooDeep++ == 0)
        m_firstTooDeep = rel;
}

void Walker::reportProgress()
{
    if (!m_control.progress || m_rootEntries <= 0)
        return;
    const int permille = int(std::min<qint64>(999, m_rootEntriesDone * 1000 / m_rootEntries));
    if (permille != m_lastPermille) {
        m_lastPermille = permille;
        m_control.report(permille);
    }
}

void Walker::walkRoot(int rootFd)
{
    StatBuffer st {};
    if (::fstat(rootFd, &st) == 0)
        m_visitedDirs.emplace(FileKey { st.st_dev, st.st_ino }, std::string());

    if (m_control.progress) {
        // One cheap extra pass over the root's names gives a denominator for progress.
        const int countFd = ::openat(rootFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (DIR* dir = countFd >= 0 ? ::fdopendir(countFd) : nullptr) {
            while (const dirent* entry = ::readdir(dir))
                m_rootEntries += entry->d_name[0] != '.';
            ::closedir(dir);
        } else if (countFd >= 0) {
            ::close(countFd);
        }
    }

    walkTree(rootFd, std::string(), 0);

    while (!m_stop && !m_deferred.empty()) {
        const Deferred link = m_deferred.front();
        m_deferred.pop_front();
        const std::string path = underRoot(m_rootBytes, link.rel);
        const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            const int error = errno;
            diagnose(models::Severity::Warning, absolute(link.rel),
                     QCoreApplication::translate("runlens::importers::RunScanner",
                                                 "The folder %1 (a symbolic link) cannot be read: %2.")
                         .arg(absolute(link.rel), errnoText(error)));
            continue;
        }
        if (::fstat(fd, &st) != 0) {
            ::close(fd);
            continue;
        }
        const FileKey key { st.st_dev, st.st_ino };
        const auto seen = m_visitedDirs.find(key);
        if (seen != m_visitedDirs.end()) {
            ::close(fd);
            const std::string& target = seen->second;
            const bool loop = target.empty() || link.rel.compare(0, target.size() + 1, target + '/') == 0;
            if (loop) {
                diagnose(models::Severity::Warning, absolute(link.rel),
                         QCoreApplication::translate(
                             "runlens::importers::RunScanner",
                             "%1 is a symbolic link to %2, which contains it (a loop); it was not followed.")
                             .arg(absolute(link.rel), absolute(target)));
            } else {
                diagnose(models::Severity::Info, absolute(link.rel),
                         QCoreApplication::translate(
                             "runlens::importers::RunScanner",
                             "%1 is a symbolic link to %2, which was already scanned; it was not followed again.")
                             .arg(absolute(link.rel), absolute(target)));
            }
            continue;
        }
        m_visitedDirs.emplace(key, link.rel);
        walkTree(fd, link.rel, link.depth);
    }

    if (m_tooDeep > 0) {
        diagnose(models::Severity::Info, absolute(m_firstTooDeep),
                 QCoreApplication::translate(
                     "runlens::importers::RunScanner",
                     "%n folder(s) more than %1 levels below %2 were not scanned, for example %3.", nullptr, m_tooDeep)
                     .arg(m_options.maxDepth)
                     .arg(absolute({}), absolute(m_firstTooDeep)));
    }
}

void Walker::walkTree(int fd, std::string rel, int depth)
{
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        const int error = errno;
        ::close(fd);
        diagnose(models::Severity::Warning, absolute(rel),
                 QCoreApplication::translate("runlens::importers::RunScanner", "The folder %1 cannot be read: %2.")
                     .arg(absolute(rel), errnoText(error)));
        return;
    }
    std::string context = rel.empty() ? m_rootName : m_rootName + '/' + rel;
    m_stack.push_back(Frame { dir, std::move(rel), std::move(context), depth });

    while (!m_stack.empty()) {
        if (m_stop) {
            for (Frame& frame : m_stack)
                ::closedir(frame.dir);
            m_stack.clear();
            return;
        }
        Frame& frame = m_stack.back();
        errno = 0;
        const dirent* entry = ::readdir(frame.dir);
        if (!entry) {
            if (errno != 0) {
                const int error = errno;
                diagnose(models::Severity::Warning, absolute(frame.rel),
                         QCoreApplication::translate("runlens::importers::RunScanner",
                                                     "Reading the folder %1 failed: %2; some files may be missing.")
                             .arg(absolute(frame.rel), errnoText(error)));
            }
            ::closedir(frame.dir);
            m_stack.pop_back();
            if (m_stack.size() == 1 && m_stack.front().rel.empty()) {
                ++m_rootEntriesDone;
                reportProgress();
            }
            continue;
        }
        const char* name = entry->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        if (!admitEntry(frame.rel))
            continue;
        if (name[0] == '.')
            continue; // hidden files and folders (.git, .ipynb_checkpoints, .dump_metadata ...)

        const bool atRoot = m_stack.size() == 1 && frame.rel.empty();
        const int dirFd = ::dirfd(frame.dir);
        unsigned char type = entry->d_type;
        StatBuffer st {};
        if (type == DT_UNKNOWN) {
            if (::fstatat(dirFd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            type = S_ISDIR(st.st_mode) ? DT_DIR
                : S_ISREG(st.st_mode)  ? DT_REG
                : S_ISLNK(st.st_mode)  ? DT_LNK
                                       : DT_UNKNOWN;
        }

        const std::size_t stackBefore = m_stack.size();
        if (type == DT_DIR) {
            enterDirectory(dirFd, name, join(frame.rel, name), frame.depth + 1);
        } else if (type == DT_REG) {
            visitFile(dirFd, name, frame, false);
        } else if (type == DT_LNK) {
            if (::fstatat(dirFd, name, &st, 0) != 0)
                continue; // a dangling link
            if (S_ISDIR(st.st_mode)) {
                const std::string childRel = join(frame.rel, name);
                if (frame.depth + 1 > m_options.maxDepth)
                    noteTooDeep(childRel);
                else
                    m_deferred.push_back(Deferred { childRel, frame.depth + 1 });
            } else if (S_ISREG(st.st_mode)) {
                visitFile(dirFd, name, frame, true);
            }
        }
        // `frame` may dangle once a child was pushed; only the root bookkeeping below needs it.
        if (atRoot && m_stack.size() == stackBefore) {
            ++m_rootEntriesDone;
            reportProgress();
        }
    }
}

void Walker::enterDirectory(int parentFd, const char* name, const std::string& rel, int depth)
{
    if (depth > m_options.maxDepth) {
        noteTooDeep(rel);
        return;
    }
    const int fd = ::openat(parentFd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        diagnose(models::Severity::Warning, absolute(rel),
                 QCoreApplication::translate("runlens::importers::RunScanner",
                                             "The folder %1 cannot be read: %2. Its files were not listed.")
                     .arg(absolute(rel), errnoText(error)));
        return;
    }
    StatBuffer st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        return;
    }
    const FileKey key { st.st_dev, st.st_ino };
    const auto seen = m_visitedDirs.find(key);
    if (seen != m_visitedDirs.end()) {
        // Only bind mounts get here: the same folder reached twice without a symbolic link.
        ::close(fd);
        diagnose(models::Severity::Warning, absolute(rel),
                 QCoreApplication::translate("runlens::importers::RunScanner",
                                             "%1 is the same folder as %2 (a mount loop); it was not scanned again.")
                     .arg(absolute(rel), absolute(seen->second)));
        return;
    }
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        const int error = errno;
        ::close(fd);
        diagnose(models::Severity::Warning, absolute(rel),
                 QCoreApplication::translate("runlens::importers::RunScanner", "The folder %1 cannot be read: %2.")
                     .arg(absolute(rel), errnoText(error)));
        return;
    }
    m_visitedDirs.emplace(key, rel);
    m_stack.push_back(Frame { dir, rel, m_rootName + '/' + rel, depth });
}

void Walker::visitFile(int dirFd, const char* name, const Frame& frame, bool viaSymlink)
{
    const bool worth = FileSniffer::worthReading(name);
    if (!worth && !m_options.includeUnknown)
        return;

    FoundFile found;
    found.rel = join(frame.rel, name);
    found.dirLength = frame.rel.size();
    found.viaSymlink = viaSymlink;

    StatBuffer st {};
    if (!worth) {
        if (::fstatat(dirFd, name, &st, 0) != 0 || !S_ISREG(st.st_mode))
            return;
    } else {
        const int fd = openForReading(dirFd, name);
        if (fd < 0) {
            const int error = errno;
            diagnose(models::Severity::Warning, absolute(found.rel),
                     QCoreApplication::translate("runlens::importers::RunScanner",
                                                 "The file %1 cannot be read: %2. Check its permissions.")
                         .arg(absolute(found.rel), errnoText(error)));
            return;
        }
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return;
        }
        const qint64 got = readHead(fd, m_head.data(), FileSniffer::kHeadSize);
        if (got < 0) {
            const int error = errno;
            ::close(fd);
            diagnose(models::Severity::Warning, absolute(found.rel),
                     QCoreApplication::translate("runlens::importers::RunScanner", "The file %1 cannot be read: %2.")
                         .arg(absolute(found.rel), errnoText(error)));
            return;
        }
        found.sniff
            = FileSniffer::sniff(name, frame.context, std::string_view(m_head.data(), std::size_t(got)), st.st_size);
        if (found.sniff.wantsLongerHead && std::size_t(got) == FileSniffer::kHeadSize) {
            const qint64 more = readHead(fd, m_head.data(), FileSniffer::kLongHeadSize);
            if (more > got)
                found.sniff = FileSniffer::sniff(name, frame.context,
                                                 std::string_view(m_head.data(), std::size_t(more)), st.st_size);
        }
        ::close(fd);
    }
    found.size = st.st_size;
    found.mtimeMs = mtimeMsOf(st);
    found.key = FileKey { st.st_dev, st.st_ino };
    m_files.push_back(std::move(found));
}

void Walker::sniffSingleFile(int dirFd, const std::string& name)
{
    // The whole folder path is the context of a file opened alone (`.../profiler/flops_0.txt`).
    const Frame frame { nullptr, std::string(), m_rootBytes, 0 };
    const bool include = m_options.includeUnknown;
    // A file the user picked is always read, whatever its extension.
    const int fd = openForReading(dirFd, name.c_str());
    if (fd < 0) {
        const int error = errno;
        diagnose(models::Severity::Error, absolute(name),
                 QCoreApplication::translate("runlens::importers::RunScanner",
                                             "The file %1 cannot be read: %2. Check its permissions.")
                     .arg(absolute(name), errnoText(error)));
        return;
    }
    StatBuffer st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        diagnose(models::Severity::Error, absolute(name),
                 QCoreApplication::translate("runlens::importers::RunScanner", "%1 is not a regular file.")
                     .arg(absolute(name)));
        return;
    }
    FoundFile found;
    found.rel = name;
    const qint64 got = readHead(fd, m_head.data(), FileSniffer::kLongHeadSize);
    ::close(fd);
    if (got < 0) {
        diagnose(models::Severity::Error, absolute(name),
                 QCoreApplication::translate("runlens::importers::RunScanner", "The file %1 cannot be read.")
                     .arg(absolute(name)));
        return;
    }
    found.sniff
        = FileSniffer::sniff(name, frame.context, std::string_view(m_head.data(), std::size_t(got)), st.st_size);
    found.size = st.st_size;
    found.mtimeMs = mtimeMsOf(st);
    found.key = FileKey { st.st_dev, st.st_ino };
    m_manifest.entriesVisited = 1;
    if (found.sniff.kind == models::ArtifactKind::Unknown && found.sniff.expectedByName == models::ArtifactKind::Unknown
        && !include)
        diagnose(models::Severity::Warning, absolute(name),
                 QCoreApplication::translate("runlens::importers::RunScanner", "%1 is not a file RunLens can read.")
                     .arg(absolute(name)));
    m_files.push_back(std::move(found));
}

/// Rank precedence: what the file says about itself (Kineto `distributedInfo.rank`), then its own name
/// (`rank-3.<ts>.pt.trace.json`, MindSpore `profiler_info_3.json`), then the nearest folder named like
/// `rank_3`/`rank-3`/`rank3`, then the opened folder's own name.
std::optional<int> rankOf(const FoundFile& file, const std::string& rootName)
{
    if (file.sniff.contentRank)
        return file.sniff.contentRank;
    const std::string_view rel(file.rel);
    const std::string_view base = file.dirLength == 0 ? rel : rel.substr(file.dirLength + 1);
    if (auto rank = FileSniffer::rankFromName(base))
        return rank;
    if (file.sniff.nameRank)
        return file.sniff.nameRank;
    std::string_view dir = rel.substr(0, file.dirLength);
    while (!dir.empty()) {
        const std::size_t slash = dir.rfind('/');
        const std::string_view component = slash == std::string_view::npos ? dir : dir.substr(slash + 1);
        if (auto rank = FileSniffer::rankFromName(component))
            return rank;
        dir = slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
    }
    return FileSniffer::rankFromName(rootName);
}

std::string_view parentOf(std::string_view dir)
{
    const std::size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? std::string_view() : dir.substr(0, slash);
}

std::string_view lastComponent(std::string_view dir)
{
    const std::size_t slash = dir.rfind('/');
    return slash == std::string_view::npos ? dir : dir.substr(slash + 1);
}

/// `dir` without its trailing artifact-named folders: "job/tb/rank_0" -> "job", "runs/exp1" -> itself.
std::string_view withoutTrailingArtifactFolders(std::string_view dir)
{
    while (!dir.empty() && models::isArtifactFolderName(lastComponent(dir)))
        dir = parentOf(dir);
    return dir;
}

/// The folder above the lowest block of artifact-named folders on `dir` ("job/dump/step_3/net" -> "job"), or
/// nothing when no folder on it has such a name.
std::optional<std::string_view> jobAbove(std::string_view dir)
{
    bool inBlock = false;
    while (!dir.empty()) {
        if (models::isArtifactFolderName(lastComponent(dir)))
            inBlock = true;
        else if (inBlock)
            return dir;
        dir = parentOf(dir);
    }
    return inBlock ? std::optional(std::string_view()) : std::nullopt;
}

/// The first folder name of `dir` below its ancestor `above` ("" for the opened folder).
std::string_view componentBelow(std::string_view dir, std::string_view above)
{
    std::string_view rest = above.empty() ? dir : dir.substr(above.size() + 1);
    const std::size_t slash = rest.find('/');
    return slash == std::string_view::npos ? rest : rest.substr(0, slash);
}

/// Run grouping: a run is a training job, named by its folder relative to the opened folder ("." for the
/// opened folder itself). Folders with the names tools give to a job's outputs (isArtifactFolderName: `tb`,
/// `logs`, `profiler`, `dump`, `graph`, `checkpoints`, `step_N`, `rank_N`, `PROF_*` ...) belong to the run
/// above them.
///  1. Summary streams (TensorBoard events, MindSpore summaries and lineage, VisualDL logs) follow TensorBoard:
///     each folder holding them is a run of its own (an `add_hparams` time-stamped sub-folder too), named
///     after the folder without its trailing artifact-named folders (`job/tb/` -> `job`). When that would
///     put two such folders into one run (`job/tb/rank_0/`, `job/tb/rank_1/`), each keeps its own name as
///     TensorBoard would, so two event streams are never read as one.
///  2. A folder is a job when some file lies under an artifact-named folder of it: the folder above the
///     lowest block of artifact-named folders on the file's path (`job/dump/step_3/net/` -> `job`). A job
///     found inside an artifact folder of another run (`job/logs/worker/profiler/`) is part of that run.
///  3. Any other file belongs to the nearest run (rule 1 or 2) at or above its folder.
///  4. Otherwise MindInsight's rule applies: runs are the opened folder and its direct sub-folders, so the
///     run is the first component of the file's path, or "." for files directly in the opened folder.
/// Every step works on the distinct folders, each looked at once per level: O(folders x depth).
void assignRuns(const std::vector<FoundFile>& files, std::vector<std::string>& runs)
{
    // Views into the files' paths, which stay put while this runs.
    auto dirOf = [](const FoundFile& file) { return std::string_view(file.rel).substr(0, file.dirLength); };

    std::unordered_set<std::string_view> dirs;
    std::unordered_set<std::string_view> summaryDirs;
    for (const FoundFile& file : files) {
        dirs.insert(dirOf(file));
        if (isSummaryStream(file.sniff.kind))
            summaryDirs.insert(dirOf(file));
    }

    // 1. Event runs.
    std::unordered_map<std::string_view, int> lifted;
    for (const std::string_view dir : summaryDirs)
        ++lifted[withoutTrailingArtifactFolders(dir)];
    std::unordered_map<std::string_view, std::string_view> eventRun;
    std::unordered_set<std::string_view> runDirs;
    for (const std::string_view dir : summaryDirs) {
        const std::string_view target = withoutTrailingArtifactFolders(dir);
        const std::string_view run = lifted[target] == 1 ? target : dir;
        eventRun.emplace(dir, run);
        runDirs.insert(run);
    }

    // 1b. Other loggers' folders, named like event folders without taking part in their collision rule (a
    // `metrics.csv` beside `tb/` stays in the job's run). W&B keeps a run's files in `run-<time>-<id>/files/`.
    std::unordered_map<std::string_view, std::string_view> loggerRun;
    for (const FoundFile& file : files) {
        if (!isLoggerStream(file.sniff.kind))
            continue;
        std::string_view dir = dirOf(file);
        const std::string_view parent = parentOf(dir);
        if (lastComponent(dir) == "files"
            && (lastComponent(parent).substr(0, 4) == "run-" || lastComponent(parent).substr(0, 12) == "offline-run-"))
            dir = parent;
        const std::string_view run = withoutTrailingArtifactFolders(dir);
        loggerRun.emplace(dirOf(file), run);
        runDirs.insert(run);
    }

    // 2. Jobs, less those inside another run's artifact folders.
    std::unordered_set<std::string_view> jobs;
    for (const std::string_view dir : dirs) {
        if (const auto job = jobAbove(dir))
            jobs.insert(*job);
    }
    auto isRunOrJob = [&](std::string_view dir) { return runDirs.count(dir) > 0 || jobs.count(dir) > 0; };
    for (const std::string_view job : jobs) {
        bool inside = false;
        for (std::string_view above = job; !above.empty() && !inside;) {
            above = parentOf(above);
            inside = isRunOrJob(above) && models::isArtifactFolderName(componentBelow(job, above));
        }
        if (!inside)
            runDirs.insert(job);
    }

    // 3 and 4, once per folder.
    std::unordered_map<std::string_view, std::string> runOfDir;
    for (const std::string_view dir : dirs) {
        std::string_view up = dir;
        while (!runDirs.count(up) && !up.empty())
            up = parentOf(up);
        std::string run;
        if (runDirs.count(up)) {
            run = up.empty() ? std::string(".") : std::string(up);
        } else {
            const std::size_t slash = dir.find('/');
            run = dir.empty() ? std::string(".") : std::string(dir.substr(0, slash));
        }
        runOfDir.emplace(dir, std::move(run));
    }

    runs.resize(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        const FoundFile& file = files[i];
        if (isSummaryStream(file.sniff.kind) || isLoggerStream(file.sniff.kind)) {
            const std::string_view run
                = isSummaryStream(file.sniff.kind) ? eventRun.at(dirOf(file)) : loggerRun.at(dirOf(file));
            runs[i] = run.empty() ? std::string(".") : std::string(run);
        } else {
            runs[i] = runOfDir.at(dirOf(file));
        }
    }
}

void reportMismatches(const std::vector<FoundFile>& files, const std::string& rootBytes, models::RunManifest& manifest)
{
    for (const FoundFile& file : files) {
        if (file.sniff.kind != models::ArtifactKind::Unknown
            || file.sniff.expectedByName == models::ArtifactKind::Unknown)
            continue;
        const QString path = fromBytes(underRoot(rootBytes, file.rel));
        const QString kind = models::artifactKindName(file.sniff.expectedByName);
        if (file.size == 0) {
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Info, path, -1, -1,
                QCoreApplication::translate(
                    "runlens::importers::RunScanner",
                    "%1 is named like a %2 file but is empty, perhaps not written yet; scan again later.")
                    .arg(path, kind) });
        } else {
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Warning, path, -1, -1,
                QCoreApplication::translate("runlens::importers::RunScanner",
                                            "%1 is named like a %2 file but its content is not one; it was left out.")
                    .arg(path, kind) });
        }
    }
}

/// An MLflow run folder is named by its id, a W&B run folder by its time and id; the run is shown under the name
/// the logger gives it (MLflow's `run_name`, W&B's display name), unless two runs beside each other share that name.
void nameRunsAsTheirLoggers(const std::vector<FoundFile>& files, std::vector<std::string>& runs)
{
    std::map<std::string, std::string> renamed; // run folder -> its run's name
    std::map<std::string, int> uses;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string& name = files[i].sniff.runName;
        const bool logger = files[i].sniff.kind == models::ArtifactKind::MlflowRun
            || files[i].sniff.kind == models::ArtifactKind::WandbRun;
        // A name that is not one folder name would put the run somewhere else in the tree.
        if (!logger || name.empty() || name.size() > 200 || name.find('/') != std::string::npos || name == "."
            || name == ".." || runs[i] == ".")
            continue;
        const std::string_view parent = parentOf(runs[i]);
        const std::string target = parent.empty() ? name : std::string(parent) + '/' + name;
        renamed.emplace(runs[i], target);
        ++uses[target];
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        const auto found = renamed.find(runs[i]);
        if (found != renamed.end() && uses[found->second] == 1)
            runs[i] = found->second;
    }
}

void buildManifest(std::vector<FoundFile>& files, const std::string& rootBytes, const std::string& rootName,
                   const RunScanner::Options& options, models::RunManifest& manifest)
{
    // A symbolic link to a file that is also listed under its real name would be imported twice.
    std::unordered_set<FileKey, FileKeyHash> direct;
    for (const FoundFile& file : files) {
        if (!file.viaSymlink)
            direct.insert(file.key);
    }
    files.erase(std::remove_if(files.begin(), files.end(),
                               [&](const FoundFile& file) { return file.viaSymlink && direct.count(file.key); }),
                files.end());

    reportMismatches(files, rootBytes, manifest);

    std::vector<std::string> runs;
    assignRuns(files, runs);
    nameRunsAsTheirLoggers(files, runs);

    std::vector<std::size_t> order;
    order.reserve(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (files[i].sniff.kind != models::ArtifactKind::Unknown || options.includeUnknown)
            order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const int byRun = runs[a].compare(runs[b]);
        return byRun != 0 ? byRun < 0 : files[a].rel < files[b].rel;
    });

    const QString root = fromBytes(rootBytes);
    manifest.artifacts.reserve(qsizetype(order.size()));
    QString lastRunName;
    std::string lastRun;
    for (const std::size_t i : order) {
        const FoundFile& file = files[i];
        models::Artifact artifact;
        artifact.relativePath = fromBytes(file.rel);
        artifact.path = root.endsWith(QLatin1Char('/')) ? root + artifact.relativePath
                                                        : root + QLatin1Char('/') + artifact.relativePath;
        artifact.kind = file.sniff.kind;
        if (runs[i] != lastRun || lastRunName.isNull()) {
            lastRun = runs[i];
            lastRunName = fromBytes(lastRun);
        }
        artifact.run = lastRunName;
        artifact.rank = rankOf(file, rootName);
        artifact.size = file.size;
        artifact.modified = QDateTime::fromMSecsSinceEpoch(file.mtimeMs);
        manifest.artifacts.append(std::move(artifact));
    }
}

} // namespace

RunScanner::RunScanner() = default;

RunScanner::RunScanner(Options options)
    : m_options(options)
{ }

models::RunManifest RunScanner::scan(const QString& path, const ImportControl& control) const
{
    models::RunManifest manifest;
    if (path.isEmpty()) {
        manifest.diagnostics.append(models::Diagnostic {
            models::Severity::Error, QString(), -1, -1,
            QCoreApplication::translate("runlens::importers::RunScanner", "No folder or file was given to scan.") });
        return manifest;
    }
    const QFileInfo info(path);
    const QString absolute = QDir::cleanPath(info.absoluteFilePath());
    const QByteArray absoluteBytes = QFile::encodeName(absolute);

    StatBuffer st {};
    if (::stat(absoluteBytes.constData(), &st) != 0) {
        const int error = errno;
        manifest.root = absolute;
        manifest.diagnostics.append(models::Diagnostic {
            models::Severity::Error, absolute, -1, -1,
            QCoreApplication::translate("runlens::importers::RunScanner", "%1 cannot be opened: %2.")
                .arg(absolute, errnoText(error)) });
        return manifest;
    }

    if (S_ISDIR(st.st_mode)) {
        manifest.root = absolute;
        const int fd = ::open(absoluteBytes.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            const int error = errno;
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Error, absolute, -1, -1,
                QCoreApplication::translate("runlens::importers::RunScanner",
                                            "The folder %1 cannot be read: %2. Check its permissions.")
                    .arg(absolute, errnoText(error)) });
            return manifest;
        }
        const std::string rootBytes(absoluteBytes.constData(), std::size_t(absoluteBytes.size()));
        const QByteArray nameBytes = QFile::encodeName(QFileInfo(absolute).fileName());
        const std::string rootName(nameBytes.constData(), std::size_t(nameBytes.size()));
        control.report(0);
        Walker walker(m_options, control, manifest, rootBytes, rootName);
        walker.walkRoot(fd); // takes ownership of fd
        buildManifest(walker.files(), rootBytes, rootName, m_options, manifest);
        control.report(1000);
        return manifest;
    }

    if (S_ISREG(st.st_mode)) {
        const QFileInfo fileInfo(absolute);
        const QString dir = fileInfo.absolutePath();
        manifest.root = dir;
        const QByteArray dirBytes = QFile::encodeName(dir);
        const int dirFd = ::open(dirBytes.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirFd < 0) {
            const int error = errno;
            manifest.diagnostics.append(models::Diagnostic {
                models::Severity::Error, absolute, -1, -1,
                QCoreApplication::translate("runlens::importers::RunScanner", "The folder of %1 cannot be read: %2.")
                    .arg(absolute, errnoText(error)) });
            return manifest;
        }
        const std::string rootBytes(dirBytes.constData(), std::size_t(dirBytes.size()));
        const QByteArray parentName = QFile::encodeName(QFileInfo(dir).fileName());
        const std::string rootName(parentName.constData(), std::size_t(parentName.size()));
        const QByteArray fileName = QFile::encodeName(fileInfo.fileName());
        Walker walker(m_options, control, manifest, rootBytes, rootName);
        walker.sniffSingleFile(dirFd, std::string(fileName.constData(), std::size_t(fileName.size())));
        ::close(dirFd);
        buildManifest(walker.files(), rootBytes, rootName, m_options, manifest);
        control.report(1000);
        return manifest;
    }

    manifest.root = absolute;
    manifest.diagnostics.append(models::Diagnostic {
        models::Severity::Error, absolute, -1, -1,
        QCoreApplication::translate("runlens::importers::RunScanner", "%1 is neither a folder nor a regular file.")
            .arg(absolute) });
    return manifest;
}

models::ArtifactKind RunScanner::classify(const QString& fileName, const QByteArray& head, qint64 fileSize)
{
    const QByteArray bytes = QFile::encodeName(QDir::fromNativeSeparators(fileName));
    const std::string_view full(bytes.constData(), std::size_t(bytes.size()));
    const std::size_t slash = full.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? full : full.substr(slash + 1);
    const std::string_view dir = slash == std::string_view::npos ? std::string_view() : full.substr(0, slash);
    return FileSniffer::sniff(base, dir, std::string_view(head.constData(), std::size_t(head.size())), fileSize).kind;
}

} // namespace runlens::importers
