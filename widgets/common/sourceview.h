#pragma once

#include <QPlainTextEdit>

namespace runlens::widgets {

/// A read-only view of a source file with line numbers, scrolled to and highlighting one line: where a
/// graph node (or any other artifact) says it came from. Large files are refused with a message rather
/// than loaded whole.
class SourceView final : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit SourceView(QWidget* parent = nullptr);

    /// Shows `path` with `line` (1-based; 0 = none) highlighted and centred. Returns false and shows the
    /// reason in the view when the file cannot be read.
    bool openFile(const QString& path, int line);
    QString path() const { return m_path; }
    int line() const { return m_line; }
    /// Width of the line-number gutter, in pixels.
    int gutterWidth() const;

    static constexpr qint64 kMaxBytes = qint64(16) << 20;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    class Gutter;
    friend class Gutter;
    void paintGutter(QPaintEvent* event);
    void highlightLine();

    Gutter* m_gutter;
    QString m_path;
    int m_line = 0;
};

} // namespace runlens::widgets
