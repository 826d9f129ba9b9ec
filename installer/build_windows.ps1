# Build the Windows installer: dist\desk18xx-<version>-windows-setup.exe
#
#   powershell -ExecutionPolicy Bypass -File installer\build_windows.ps1
#
# Needs Python 3.11+ (the "py" launcher) and Inno Setup 6 (ISCC.exe on PATH or
# in its default folder). Uses .venv beside the project, made if missing.
$ErrorActionPreference = "Stop"
$root = Split-Path -Parent $PSScriptRoot
Set-Location $root

$py = Join-Path $root ".venv\Scripts\python.exe"
if (-not (Test-Path $py)) {
    py -3 -m venv .venv
    if ($LASTEXITCODE) { throw "could not create .venv" }
}
& $py -m pip install --quiet -e ".[installer]"
if ($LASTEXITCODE) { throw "pip install failed" }

$version = & $py -c "import sys; sys.path.insert(0, '.'); import desk18xx; print(desk18xx.__version__)"
& $py -m PyInstaller --noconfirm --clean --log-level WARN installer\desk18xx.spec
if ($LASTEXITCODE) { throw "PyInstaller failed" }

$iscc = (Get-Command ISCC.exe -ErrorAction SilentlyContinue).Source
if (-not $iscc) { $iscc = Join-Path ${env:ProgramFiles(x86)} "Inno Setup 6\ISCC.exe" }
& $iscc "/DAppVersion=$version" installer\windows\desk18xx.iss
if ($LASTEXITCODE) { throw "Inno Setup failed" }
Write-Output "dist\desk18xx-$version-windows-setup.exe"
