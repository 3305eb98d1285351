#include "importers/core/runscanner.h"

#include "importers/core/filesniffer.h"
#include "importers/core/runscannerparts.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace runlens::importers {

using detail::buildManifest;
using detail::errnoText;
using detail::StatBuffer;
using detail::Walker;

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
