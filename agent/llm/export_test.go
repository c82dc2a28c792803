package llm

// SearchAssets exposes search_assets' answer to the package's tests.
var SearchAssets = searchAssets

// ProjectAssets exposes list_project_assets' answer to the package's tests.
var ProjectAssets = projectAssets
