#pragma once

#include <QDialog>

class QFormLayout;
class QLineEdit;
class QPushButton;

namespace runlens::app {

/// File > Compare Dumps…: the bench and target dumps (folders or files) and an optional mapping file.
class CompareDumpsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit CompareDumpsDialog(QWidget* parent = nullptr);

    void setBench(const QString& path);
    void setTarget(const QString& path);
    QString bench() const;
    QString target() const;
    QString mapping() const;

private:
    QLineEdit* addRow(QFormLayout* form, const QString& label, bool dumps);
    void updateOk();

    QLineEdit* m_bench = nullptr;
    QLineEdit* m_target = nullptr;
    QLineEdit* m_mapping = nullptr;
    QPushButton* m_ok = nullptr;
};

} // namespace runlens::app
