#pragma once

// The parts of RunScanner::scan, one file each: walking the folder and sniffing its files (runwalker.cpp), and
// grouping what was found into runs and ranks (runnaming.cpp). Internal to importers/core.

#include "importers/core/filesniffer.h"
#include "importers/core/runscanner.h"

#include <QString>

#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>

namespace runlens::importers::detail {

/// A path in the file system's encoding as text.
QString fromBytes(const std::string& bytes);
/// The system's message for an errno value.
QString errnoText(int error);
/// `root/rel` as bytes; `root` may be "/".
std::string underRoot(const std::string& root, const std::string& rel);

using StatBuffer = struct stat;

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

/// Turns the files the walk found into the manifest's artifacts: drops files listed twice through symbolic links,
/// reports files named like a kind they are not, names each file's run and rank, and sorts by run and path.
void buildManifest(std::vector<FoundFile>& files, const std::string& rootBytes, const std::string& rootName,
                   const RunScanner::Options& options, models::RunManifest& manifest);

} // namespace runlens::importers::detail
