; Inno Setup 6 script: the Windows installer for desk18xx.
; Build the bundle first (installer\build_windows.ps1 does both), then:
;   ISCC.exe /DAppVersion=0.1.0 installer\windows\desk18xx.iss
; Output: dist\desk18xx-<version>-windows-setup.exe
; Installs per user by default (no admin rights), or for all users if chosen;
; registers *.d18xx saved games to open in desk18xx.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define AppName "desk18xx"
#define AppExe "desk18xx.exe"
#define SaveExt ".d18xx"
#define SaveProgId "desk18xx.save"

[Setup]
AppId={{6F1B2E4A-8C3D-4E5F-9A18-67182200CA18}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=desk18xx
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ChangesAssociations=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
SetupIconFile=..\..\resources\icons\desk18xx.ico
UninstallDisplayIcon={app}\{#AppExe}
OutputDir=..\..\dist
OutputBaseFilename={#AppName}-{#AppVersion}-windows-setup
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The PyInstaller one-folder bundle (dist\desk18xx).
Source: "..\..\dist\desk18xx\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; Saved games (*.d18xx) open in desk18xx; the icon is the program's.
Root: HKA; Subkey: "Software\Classes\{#SaveExt}\OpenWithProgids"; ValueType: string; ValueName: "{#SaveProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#SaveExt}"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-desk18xx-save"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#SaveProgId}"; ValueType: string; ValueName: ""; ValueData: "desk18xx saved game"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#SaveProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"
Root: HKA; Subkey: "Software\Classes\{#SaveProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: "{#SaveExt}"; ValueData: ""

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
