#pragma once

// The parser of an msprobe dump, one file each: reading the files and the diagnostics (msprobedumpreader.cpp),
// dump.json's entries and their values (msprobedumpjson.cpp), and the files beside it: construct.json, stack.json
// and dump_tensor_data/ (msprobefiles.cpp). Internal to importers/accuracy.

#include "importers/accuracy/msprobedumpreader.h"
#include "importers/core/importbudget.h"

#include <QByteArray>
#include <QString>
#include <QVariant>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace runlens::importers::accuracy::detail {

using Json = nlohmann::ordered_json;

// Messages are translated in the context "runlens::accuracy". QCoreApplication::translate is spelled out rather
// than wrapped in a tr() helper: lupdate would file a helper's strings under the calling class instead.

QString fromStd(const std::string& text);
QString jsonText(const Json& value);

/// msprobe writes NaN and ±Inf as Python's json does: bare NaN, Infinity and -Infinity, which no strict
/// parser takes. Outside strings they become the strings "NaN", "Infinity" and "-Infinity" (which the
/// statistics readers turn back into numbers); `inserted` holds where, so parser offsets map back.
struct Sanitized
{
    QByteArray text;
    std::vector<qint64> inserted; ///< offsets in `text` of each replacement (each adds two quote bytes)

    qint64 originalOffset(qint64 offset) const
    {
        const auto before = std::lower_bound(inserted.begin(), inserted.end(), offset) - inserted.begin();
        return offset - 2 * qint64(before);
    }
};

Sanitized sanitizeNonFinite(const QByteArray& input);

/// The member `key` of an object; null when `object` is no object or has no such member.
const Json* member(const Json& object, std::string_view key);

class DumpParser
{
public:
    DumpParser(const MsprobeDumpFiles& files, const ImportControl& control, MsprobeReadResult& result,
               models::accuracy::MsprobeDump& dump)
        : m_files(files)
        , m_control(control)
        , m_result(result)
        , m_dump(dump)
    { }

    void run();

private:
    // --- diagnostics -----------------------------------------------------------------------------------

    void add(models::Severity severity, const QString& file, const QString& message, qint64 offset = -1);

    /// A problem with one entry or value: detailed for the first few, counted for the rest.
    void warn(const QString& file, const QString& message);
    void finishWarnings();
    void cancel();
    void parseError(const QString& file, const nlohmann::json::exception& error, qint64 fileSize,
                    const Sanitized* sanitized);

    /// Checks nesting and size against a budget of the file's size; false (with an error) when over.
    bool withinBudget(const QString& file, const QByteArray& text, qint64 fileSize, const Sanitized* sanitized);

    // --- dump.json ---------------------------------------------------------------------------------------

    bool parseDumpJson();
    void topValue(const std::string& key, const Json& value);
    void finishHeader();
    void entry(const QString& name, const Json& record);
    static QString joinPath(const QString& path, const QString& part);
    void flatten(const Json& value, models::accuracy::ArgRole role, const QString& path, int depth);
    void leaf(const Json& value, models::accuracy::ArgRole role, const QString& path);
    static QString where(const models::accuracy::DumpRow& row);
    void wrongType(const models::accuracy::DumpRow& row, const char* key, const Json& value, const QString& expected);
    void tensor(const Json& record, models::accuracy::DumpRow& row);
    QString stringMember(const Json& record, const char* key, const models::accuracy::DumpRow& row);
    std::optional<double> statistic(const Json& record, const char* key, models::accuracy::DumpRow& row);
    void scalarRecord(const Json& record, models::accuracy::DumpRow& row);
    QVariant plainValue(const Json& value, int depth);

    // --- construct.json ----------------------------------------------------------------------------------

    std::optional<Json> parseSmall(const QString& file, const QByteArray& bytes);
    void parseConstruct(const QByteArray& bytes);

    // --- stack.json --------------------------------------------------------------------------------------

    std::optional<models::accuracy::Stack> frames(const QString& file, const QString& owner, const Json& list);
    void parseStacks(const QByteArray& bytes);

    // --- dump_tensor_data/ -------------------------------------------------------------------------------

    void matchTensorFiles();

    const MsprobeDumpFiles& m_files;
    const ImportControl& m_control;
    MsprobeReadResult& m_result;
    models::accuracy::MsprobeDump& m_dump;
    std::unique_ptr<ImportBudget> m_budget;
    models::accuracy::DumpEntry* m_entry = nullptr;
    int m_warnings = 0;
    bool m_rowBudgetExceeded = false;
    bool m_sawMd5 = false;
    bool m_sawTorchType = false;
    bool m_sawMindSporeType = false;
};

} // namespace runlens::importers::accuracy::detail
