#include "importers/accuracy/msprobedumpparts.h"

#include "importers/core/jsonscan.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace runlens::importers::accuracy {

namespace detail {

namespace {

constexpr int kDetailedWarnings = 20; // per dump; the rest are counted in one message

} // namespace

QString fromStd(const std::string& text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString jsonText(const Json& value)
{
    if (value.is_string())
        return fromStd(value.get_ref<const std::string&>());
    return fromStd(value.dump(-1, ' ', false, Json::error_handler_t::replace));
}

Sanitized sanitizeNonFinite(const QByteArray& input)
{
    Sanitized out;
    const char* data = input.constData();
    const qsizetype size = input.size();
    bool inString = false;
    qsizetype copiedUpTo = 0;
    auto matches = [&](qsizetype at, std::string_view word) {
        return size - at >= qsizetype(word.size()) && std::string_view(data + at, word.size()) == word;
    };
    for (qsizetype i = 0; i < size; ++i) {
        const char c = data[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
            continue;
        }
        std::string_view word;
        if (c == 'N' && matches(i, "NaN"))
            word = "NaN";
        else if (c == 'I' && matches(i, "Infinity"))
            word = "Infinity";
        else if (c == '-' && matches(i, "-Infinity"))
            word = "-Infinity";
        if (word.empty())
            continue;
        if (out.text.isEmpty())
            out.text.reserve(size + 64);
        out.text.append(data + copiedUpTo, i - copiedUpTo);
        out.inserted.push_back(out.text.size());
        out.text.append('"');
        out.text.append(word.data(), qsizetype(word.size()));
        out.text.append('"');
        i += qsizetype(word.size()) - 1;
        copiedUpTo = i + 1;
    }
    if (out.inserted.empty())
        out.text = input;
    else
        out.text.append(data + copiedUpTo, size - copiedUpTo);
    return out;
}

const Json* member(const Json& object, std::string_view key)
{
    if (!object.is_object())
        return nullptr;
    const auto found = object.find(key);
    return found == object.end() ? nullptr : &*found;
}

void DumpParser::run()
{
    m_dump.folder = m_files.folder;
    if (!parseDumpJson())
        return;
    m_control.report(700);
    if (m_files.constructJson)
        parseConstruct(*m_files.constructJson);
    if (m_control.canceled())
        return cancel();
    m_control.report(800);
    if (m_files.stackJson)
        parseStacks(*m_files.stackJson);
    if (m_control.canceled())
        return cancel();
    m_control.report(900);
    matchTensorFiles();
    finishWarnings();
    m_control.report(1000);
}

void DumpParser::add(models::Severity severity, const QString& file, const QString& message, qint64 offset)
{
    m_result.diagnostics.append({ severity, file, offset, -1, message });
    if (severity != models::Severity::Info && m_result.status == models::ImportStatus::Ok)
        m_result.status = models::ImportStatus::Partial;
}

void DumpParser::warn(const QString& file, const QString& message)
{
    if (++m_warnings <= kDetailedWarnings)
        add(models::Severity::Warning, file, message);
    else if (m_result.status == models::ImportStatus::Ok)
        m_result.status = models::ImportStatus::Partial;
}

void DumpParser::finishWarnings()
{
    if (m_warnings > kDetailedWarnings)
        add(models::Severity::Warning, m_files.dumpPath,
            QCoreApplication::translate(
                "runlens::accuracy", "%1 more problems with entries or values of this dump were skipped the same way")
                .arg(m_warnings - kDetailedWarnings));
}

void DumpParser::cancel()
{
    m_result.status = models::ImportStatus::Canceled;
    add(models::Severity::Info, m_files.dumpPath,
        QCoreApplication::translate("runlens::accuracy", "reading was canceled; the entries read before are kept"));
    m_result.status = models::ImportStatus::Canceled;
}

void DumpParser::parseError(const QString& file, const nlohmann::json::exception& error, qint64 fileSize,
                            const Sanitized* sanitized)
{
    qint64 offset = -1;
    if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&error); parse && parse->byte > 0) {
        offset = qint64(parse->byte) - 1;
        if (sanitized)
            offset = sanitized->originalOffset(offset);
        offset = std::clamp<qint64>(offset, 0, fileSize);
    }
    add(models::Severity::Error, file,
        QCoreApplication::translate("runlens::accuracy", "not valid JSON: %1").arg(QString::fromUtf8(error.what())),
        offset);
}

bool DumpParser::withinBudget(const QString& file, const QByteArray& text, qint64 fileSize, const Sanitized* sanitized)
{
    ImportBudget budget(fileSize);
    const std::int64_t overrun = scanJsonLimits(std::string_view(text.constData(), std::size_t(text.size())), budget);
    if (overrun < 0)
        return true;
    models::Diagnostic diagnostic = budget.diagnostic(
        file, std::clamp<qint64>(sanitized ? sanitized->originalOffset(overrun) : overrun, 0, fileSize));
    m_result.diagnostics.append(diagnostic);
    return false;
}

} // namespace detail

MsprobeReadResult parseMsprobeDump(const MsprobeDumpFiles& files, const ImportControl& control)
{
    MsprobeReadResult result;
    auto dump = std::make_shared<models::accuracy::MsprobeDump>();
    detail::DumpParser(files, control, result, *dump).run();
    result.dump = std::move(dump);
    return result;
}

QString msprobeDumpJsonPath(const QString& path)
{
    const QFileInfo info(path);
    if (info.isFile())
        return info.absoluteFilePath();
    if (!info.isDir())
        return {};
    const QDir dir(info.absoluteFilePath());
    for (const QString& name : { QStringLiteral("dump.json"), QStringLiteral("debug.json") })
        if (QFileInfo(dir.filePath(name)).isFile())
            return dir.filePath(name);
    return {};
}

MsprobeReadResult readMsprobeDump(const QString& path, const ImportControl& control)
{
    MsprobeReadResult result;
    const QString dumpPath = msprobeDumpJsonPath(path);
    if (dumpPath.isEmpty()) {
        result.dump = std::make_shared<models::accuracy::MsprobeDump>();
        result.status = models::ImportStatus::Failed;
        result.diagnostics.append(
            { models::Severity::Error, QFileInfo(path).absoluteFilePath(), -1, -1,
              QCoreApplication::translate("runlens::accuracy",
                                          "no dump.json here: an msprobe dump folder (step*/rank*/) holds one") });
        return result;
    }
    MsprobeDumpFiles files;
    files.dumpPath = dumpPath;
    files.folder = QFileInfo(dumpPath).absolutePath();
    const QDir dir(files.folder);
    auto read = [&](const QString& file, bool required) -> std::optional<QByteArray> {
        QFile f(file);
        if (!f.exists() && !required)
            return std::nullopt;
        if (!f.open(QIODevice::ReadOnly)) {
            result.diagnostics.append(
                { required ? models::Severity::Error : models::Severity::Warning, file, -1, -1,
                  QCoreApplication::translate("runlens::accuracy", "cannot read the file: %1").arg(f.errorString()) });
            return std::nullopt;
        }
        return f.readAll();
    };
    const std::optional<QByteArray> dumpJson = read(dumpPath, true);
    if (!dumpJson) {
        result.dump = std::make_shared<models::accuracy::MsprobeDump>();
        result.status = models::ImportStatus::Failed;
        return result;
    }
    files.dumpJson = *dumpJson;
    files.constructPath = dir.filePath(QStringLiteral("construct.json"));
    files.constructJson = read(files.constructPath, false);
    files.stackPath = dir.filePath(QStringLiteral("stack.json"));
    files.stackJson = read(files.stackPath, false);
    const QDir tensorDir(dir.filePath(QStringLiteral("dump_tensor_data")));
    if (tensorDir.exists())
        files.tensorFileNames = tensorDir.entryList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name);
    const models::Diagnostics readProblems = result.diagnostics;
    result = parseMsprobeDump(files, control);
    if (!readProblems.isEmpty()) {
        result.diagnostics = readProblems + result.diagnostics;
        if (result.status == models::ImportStatus::Ok)
            result.status = models::ImportStatus::Partial;
    }
    return result;
}

} // namespace runlens::importers::accuracy
