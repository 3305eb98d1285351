#include "importers/core/runscannerparts.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace runlens::importers::detail {

QString fromBytes(const std::string& bytes)
{
    return QFile::decodeName(QByteArray(bytes.data(), qsizetype(bytes.size())));
}

QString errnoText(int error)
{
    return qt_error_string(error);
}

std::string underRoot(const std::string& root, const std::string& rel)
{
    if (rel.empty())
        return root;
    return !root.empty() && root.back() == '/' ? root + rel : root + '/' + rel;
}

namespace {

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

} // namespace

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

} // namespace runlens::importers::detail
