// Package watch notices a project's files changing on disk (another editor,
// git pull) with fsnotify: it watches the project folder and every folder
// under it, except .strata (the warehouse and run state) and hidden ones,
// and reports each burst of changes once, as the project-relative paths
// that changed, after the burst has been quiet for a short while (an editor
// save is often several events; git checkout is hundreds).
package watch
