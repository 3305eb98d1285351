#pragma once

#include "models/core/diagnostic.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace runlens::importers::profiler {

/// A comma or tab separated table as MindSpore and CANN profilers write them, read once and kept compact.
///
/// Profiler tables changed their headers across MindSpore versions, so columns are looked up by header name
/// (case-insensitive, surrounding and inner white space ignored) with alternatives, never by position. Fields are
/// kept as byte ranges of one buffer (quoted fields unescaped into it), so a table of millions of kernels costs
/// eight bytes per field. Reading never fails hard: quoting errors, ragged rows and a missing header become
/// diagnostics naming the file, line and column, and every row that could be read is kept.
class CsvTable
{
public:
    struct Options
    {
        /// ',' or '\t'; 0 picks the one the header line uses most (outside quotes).
        char delimiter = 0;
        /// Files larger than this are refused with an error (the table addresses fields with 32-bit offsets).
        qint64 maxBytes = qint64(2000) * 1024 * 1024;
    };

    CsvTable() = default;

    /// Parses `data`; `fileName` is only used in diagnostics.
    static CsvTable parse(QByteArrayView data, const QString& fileName, const Options& options);
    static CsvTable parse(QByteArrayView data, const QString& fileName) { return parse(data, fileName, Options {}); }
    /// Reads and parses a file; an unreadable file gives an empty table with an error diagnostic.
    static CsvTable readFile(const QString& path, const Options& options);
    static CsvTable readFile(const QString& path) { return readFile(path, Options {}); }

    /// True when a header line was found.
    bool hasHeader() const { return !m_header.isEmpty(); }
    const QString& fileName() const { return m_fileName; }
    char delimiter() const { return m_delimiter; }
    /// Header names as written (trimmed).
    const QStringList& header() const { return m_header; }
    int columnCount() const { return int(m_header.size()); }
    int rowCount() const { return int(m_rowLines.size()); }

    /// Index of the first of `names` present in the header, or -1.
    int column(std::initializer_list<const char*> names) const;
    int column(const QString& name) const;
    int column(const QStringList& names) const;
    /// The name a lookup key is compared with: lower-cased, white space removed.
    static QString headerKey(QStringView name);

    /// Number of fields of a row as written (may differ from columnCount() for ragged rows).
    int fieldCount(int row) const;
    /// Field text (trimmed); empty for a missing column or field.
    QString text(int row, int column) const;
    /// Raw bytes of a field (trimmed), valid as long as the table lives.
    QByteArrayView bytes(int row, int column) const;
    bool isEmpty(int row, int column) const { return bytes(row, column).isEmpty(); }

    /// Numeric getters: `ok` (when given) says whether the field held a number. Integers also accept a
    /// decimal with a zero fraction ("12.0"); doubles accept exponents, "nan" and "inf".
    qint64 toInt64(int row, int column, bool* ok = nullptr) const;
    double toDouble(int row, int column, bool* ok = nullptr) const;
    std::optional<qint64> int64At(int row, int column) const;
    std::optional<double> doubleAt(int row, int column) const;

    /// 1-based line in the file where a row starts.
    qint64 lineOf(int row) const;
    /// A diagnostic pointing at a cell: file, the row's line, and the column's header name in the message.
    models::Diagnostic cellDiagnostic(int row, int column, const QString& message,
                                      models::Severity severity = models::Severity::Warning) const;
    /// A diagnostic about the whole file.
    models::Diagnostic fileDiagnostic(const QString& message,
                                      models::Severity severity = models::Severity::Warning) const;
    /// Problems found while reading (quoting, ragged rows, missing header, unreadable file).
    const models::Diagnostics& diagnostics() const { return m_diagnostics; }

private:
    struct Field
    {
        quint32 offset = 0;
        quint32 length = 0;
    };

    QString m_fileName;
    char m_delimiter = ',';
    QByteArray m_buffer;
    QStringList m_header;
    QHash<QString, int> m_columnByKey;
    std::vector<Field> m_fields;
    std::vector<quint32> m_rowFirstField; ///< index into m_fields, one extra entry at the end
    std::vector<qint64> m_rowLines;
    models::Diagnostics m_diagnostics;

    friend class CsvParser;
};

} // namespace runlens::importers::profiler
