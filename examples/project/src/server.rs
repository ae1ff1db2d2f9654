use std::collections::HashMap;

/// Routes requests to handlers by path.
pub struct Router {
    routes: HashMap<String, fn(&str) -> String>,
}

impl Router {
    pub fn new() -> Self {
        Router { routes: HashMap::new() }
    }

    pub fn add(&mut self, path: &str, handler: fn(&str) -> String) {
        self.routes.insert(path.to_string(), handler);
    }

    pub fn handle(&self, path: &str, body: &str) -> Option<String> {
        let handler = self.routes.get(path)?;
        Some(handler(body))
    }
}

fn health(_body: &str) -> String {
    let status = "ok";
    format!("{{\"status\": \"{status}\"}}")
}

fn echo(body: &str) -> String {
    let status = "ok";
    format!("{{\"status\": \"{status}\", \"echo\": {body:?}}}")
}
