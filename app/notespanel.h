#pragma once

#include <QWidget>

class QPlainTextEdit;
class QTextBrowser;
class QTimer;
class QToolButton;
class QLabel;

namespace runlens::app {

/// The Notes dock: a Markdown pad for the open run folder, with a preview. What is typed is saved a moment
/// later (and when another folder is opened or the window closes) through RunNotes, so notes live in the
/// user's data folder and the run folder is never written to.
class NotesPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit NotesPanel(QWidget* parent = nullptr);
    ~NotesPanel() override;

    /// Saves the notes of the folder shown, then shows those of `folder` (empty: none, the pad is disabled).
    void setFolder(const QString& folder);
    QString folder() const { return m_folder; }

    QString text() const;
    void setText(const QString& text);
    /// Shows the rendered Markdown instead of the editor.
    void setPreview(bool preview);
    bool isPreview() const;
    /// The preview's document, as rendered.
    QString previewPlainText() const;

    /// Writes pending changes now; false (and saveFailed) when they could not be written.
    bool save();

    static constexpr int kSaveDelayMs = 800;

signals:
    void saveFailed(const QString& message);

private:
    void updatePreview();

    QString m_folder;
    bool m_dirty = false;
    bool m_loading = false;
    QToolButton* m_previewButton;
    QLabel* m_location;
    QPlainTextEdit* m_editor;
    QTextBrowser* m_preview;
    QTimer* m_saveTimer;
};

} // namespace runlens::app
