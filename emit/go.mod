module github.com/horizonqs/horizon/emit

// go 1.18: engines still on an old toolchain can require this module
// without their go line moving (TestEmitModuleOldGo in foreign checks it).
go 1.18
